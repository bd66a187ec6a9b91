"""A Ray cluster on loopback for tests: started by the test, stopped after it.

One head node in a child process (`ray.init` with a few CPUs) that listens on 127.0.0.1
only, with no dashboard, no usage statistics, a token of its own and its session files in
a directory of its own, removed afterwards. The drivers a test starts join it with
`cluster.env` and `--address cluster.address`.
"""

from __future__ import annotations

import contextlib
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

HEAD = """
import sys, ray
context = ray.init(num_cpus=int(sys.argv[1]), include_dashboard=False,
                   _node_ip_address="127.0.0.1", _temp_dir=sys.argv[2])
print(context.address_info["gcs_address"], flush=True)
sys.stdin.read()
ray.shutdown()
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
    head: int
    """The pid of the process that holds the cluster; every Ray process descends from it."""

    def processes(self, title: str) -> list[int]:
        """Our cluster's processes whose command line starts with `title` (Ray names a
        worker process by what it runs: `ray::play_match`, `ray::BotHost`, ...)."""
        return [pid for pid, command in _commands().items()
                if command.startswith(title) and _descends(pid, self.head)]


@contextlib.contextmanager
def ray_cluster(cpus: int = 2) -> Iterator[Cluster]:
    env = {**os.environ, **LOOPBACK_ONLY, "RAY_AUTH_TOKEN": secrets.token_hex(16),
           "COLUMNS": "1000"}
    scratch = tempfile.mkdtemp(prefix="ray-")  # short: Ray's socket paths live in it
    head = subprocess.Popen([sys.executable, "-c", HEAD, str(cpus), scratch],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env,
                            start_new_session=True)
    try:
        address = head.stdout.readline().strip()
        assert address.startswith("127.0.0.1:"), f"the Ray head did not start: {address!r}"
        yield Cluster(address, env, head.pid)
    finally:
        head.stdin.close()
        try:
            head.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        shutil.rmtree(scratch, ignore_errors=True)


def _commands() -> dict[int, str]:
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                found[int(entry.name)] = (entry / "cmdline").read_bytes() \
                    .replace(b"\0", b" ").decode(errors="replace")
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
