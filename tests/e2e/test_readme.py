"""The README's commands run as written, the way a newcomer pastes them after the Quick
start: in a fresh shell that has only sourced the venv's activate script, in a directory
holding this checkout's files, with `my_bot.py` saved from the README's "Writing a bot".

Every `sh` block of "Using it" runs as one shell script, stopping at the first command that
fails; the failure names it. Three things differ from a person at a terminal, and only
these: the README's port numbers are replaced by free ones (a test listens on no fixed
port), the default server's too (by ADMIRALTY_SERVER); after a command put in the
background the script waits until its port listens, as a person would read its
"listening" line before typing on; and a command that reads keys (`-i`) runs in a terminal
of its own and is sent `q` once it shows its keys. The block that builds the other-language bots
(`make bots`) shares the example bots' folders with `test_other_languages`, so both run in
one xdist group.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_helpers import REPO

from admiralty.referee.launcher import free_port

README = (REPO / "README.md").read_text()
CHECKOUT = ("example_bots", "Makefile", ".venv", "proto", "pyproject.toml", "server", "sdk")
"""What the newcomer's directory holds of the checkout (linked, not copied)."""
PRESS_Q = Path(__file__).parents[1] / "support" / "press_q.py"
"""Runs a command that reads keys in a terminal of its own and presses q."""


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end > 0 else None]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def commands(block: str) -> list[str]:
    """The block's commands, a line continued with a backslash joined to the next."""
    return [
        command.strip() for command in block.replace("\\\n", " ").splitlines() if command.strip()
    ]


def activation() -> str:
    """The Quick start's last step, which leaves the shell with `admiralty` on its PATH."""
    quick = blocks(section("Quick start"), "sh")[0]
    found = re.search(r"\. \.venv/bin/activate", quick)
    assert found, "the Quick start no longer activates the venv"
    return found.group()


def newcomers_directory(tmp_path: Path) -> Path:
    home = tmp_path / "clone"
    home.mkdir()
    for name in CHECKOUT:
        (home / name).symlink_to(REPO / name)
    (home / "my_bot.py").write_text(blocks(section("Writing a bot"), "python")[0])
    return home


def with_free_ports(command: str, ports: dict[str, str]) -> str:
    return re.sub(r"\b5\d{4}\b", lambda m: ports.setdefault(m.group(), str(free_port())), command)


DEFAULT_SERVER_PORT = "50051"
"""The port of `admiralty serve` and of the clients that are given no --server."""


def script(block: str, ports: dict[str, str]) -> str:
    """The block as a shell script: each command announced, then run as written (but for
    its ports); a background one followed by a wait for its port, and every one stopped
    when the script ends."""
    lines = [
        "set -e",
        "trap 'status=$?; kill $(jobs -p) 2>/dev/null || true; exit $status' EXIT",
        activation(),
        f"export ADMIRALTY_SERVER=127.0.0.1:{with_free_ports(DEFAULT_SERVER_PORT, ports)}",
    ]
    for command in commands(block):
        command = with_free_ports(command, ports)
        lines.append(f"echo {shlex.quote('$ ' + command)}")
        if re.search(r"\s(-i|--interactive)\b", command):
            command = " ".join(map(shlex.quote, (sys.executable, str(PRESS_Q), command)))
        lines.append(command)
        port = re.search(r"--port (\d+)", command)
        if re.search(r"&\s*(#.*)?$", command) and port:
            lines.append(
                f"for _ in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/{port[1]}) "
                f"2>/dev/null && break; sleep 0.1; done"
            )
    return "\n".join(lines) + "\n"


def fresh_environment() -> dict[str, str]:
    """A login shell's basics, not this test's: no venv on PATH, no admiralty variables."""
    keep = ("HOME", "LANG", "TMPDIR", "TERM")
    environment = {name: os.environ[name] for name in keep if name in os.environ}
    environment["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    environment["COLUMNS"] = "100"
    return environment


USING_IT = blocks(section("Using it"), "sh")


def test_the_readme_shows_commands_to_run():
    assert len(USING_IT) >= 4 and sum(len(commands(block)) for block in USING_IT) >= 30


@pytest.mark.parametrize(
    "block",
    [
        pytest.param(
            block,
            id=f"block{n}",
            marks=[pytest.mark.xdist_group("example_bots_build")] if "make bots" in block else [],
        )
        for n, block in enumerate(USING_IT)
    ],
)
def test_the_readme_commands_run_as_written(block, tmp_path):
    home = newcomers_directory(tmp_path)
    ran = subprocess.run(
        ["bash", "-c", script(block, {})],
        cwd=home,
        env=fresh_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    announced = [line for line in ran.stdout.splitlines() if line.startswith("$ ")]
    assert ran.returncode == 0, (
        f"`{announced[-1] if announced else block}` failed "
        f"({ran.returncode}):\n{ran.stdout[-2000:]}\n{ran.stderr[-2000:]}"
    )
    assert len(announced) == len(commands(block))
