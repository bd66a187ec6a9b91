"""A Ray cluster on loopback for tests: started by the test, stopped after it.

A head and further nodes of one CPU each, all on this machine (Ray's `cluster_utils`), held
by a child process; they listen on 127.0.0.1 only, with no dashboard, no usage statistics, a
token of their own and their files in a directory of their own, removed afterwards. The
drivers a test starts join with `cluster.env` and `--address cluster.address`;
`lose_node()` kills a node's processes at once, as a machine lost mid-run.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

HOLDER = """
import sys
from ray.cluster_utils import Cluster

node = {"num_cpus": 1, "node_ip_address": "127.0.0.1"}
cluster = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
others = [cluster.add_node(**node) for _ in range(int(sys.argv[1]) - 1)]
cluster.wait_for_nodes()
print(cluster.address, flush=True)
for _ in sys.stdin:  # a line: lose a node
    cluster.remove_node(others.pop(), allow_graceful=False)
    print("lost", flush=True)
cluster.shutdown()
"""

LOOPBACK_ONLY = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",  # one machine: Ray keeps to 127.0.0.1
    "RAY_AUTH_MODE": "token",
}


@dataclass(frozen=True)
class Cluster:
    address: str
    env: dict[str, str]
    holder: subprocess.Popen

    @property
    def head(self) -> int:
        """The pid of the process that holds the cluster; every Ray process descends from it."""
        return self.holder.pid

    def lose_node(self) -> None:
        """Kill every process of the last node added (its workers, its bots) at once."""
        self.holder.stdin.write("lose\n")
        self.holder.stdin.flush()
        assert self.holder.stdout.readline().strip() == "lost"

    def processes(self, title: str) -> list[int]:
        """Our cluster's processes whose command line starts with `title` (Ray names a
        worker process by what it runs: `ray::play_match`, `ray::BotHost`, ...)."""
        return [
            pid
            for pid, command in _commands().items()
            if command.startswith(title) and _descends(pid, self.head)
        ]


@contextlib.contextmanager
def ray_cluster(nodes: int = 2) -> Iterator[Cluster]:
    scratch = tempfile.mkdtemp(prefix="ray-")  # short: Ray's socket paths live in it
    env = {
        **os.environ,
        **LOOPBACK_ONLY,
        "RAY_AUTH_TOKEN": secrets.token_hex(16),
        "RAY_TMPDIR": scratch,
        "COLUMNS": "1000",
    }
    head = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(nodes)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        address = head.stdout.readline().strip()
        assert address.startswith("127.0.0.1:"), f"the Ray head did not start: {address!r}"
        yield Cluster(address, env, head)
    finally:
        head.stdin.close()
        try:
            head.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        shutil.rmtree(scratch, ignore_errors=True)


def listening(root: int) -> set[str]:
    """The addresses (host:port) that `root` and every process descended from it listen on
    over TCP."""
    inodes = {}
    for name in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{name}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                inodes[fields[9]] = _address(fields[1])
    found = set()
    for pid in [root, *(pid for pid in _commands() if _descends(pid, root))]:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    found.add(inodes.get(target[8:-1]))
    return found - {None}


def _address(hex_address: str) -> str:
    """/proc/net/tcp's `0100007F:1F90` as `127.0.0.1:8080` (an IPv4 address mapped into
    IPv6 as the IPv4 one)."""
    host, port = hex_address.split(":")
    raw = bytes.fromhex(host)
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))  # host byte order
    ip = ipaddress.ip_address(words)
    return f"{getattr(ip, 'ipv4_mapped', None) or ip}:{int(port, 16)}"


def _commands() -> dict[int, str]:
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                found[int(entry.name)] = (
                    (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                )
    return found


def parent(pid: int) -> int:
    """The parent of `pid`; 0 once it is gone."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def _descends(pid: int, ancestor: int) -> bool:
    while pid > 1:
        pid = parent(pid)
        if pid == ancestor:
            return True
    return False
