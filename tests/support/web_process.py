"""`admiralty web` as a real process on a free local port, for the tests that talk to it
over a socket or drive a browser at it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def start_web(db: Path, records: Path, *extra: str, env: dict[str, str] | None = None):
    """The process, started with `--port 0`: its first stdout line says where it serves.
    The caller's ADMIRALTY_ variables are dropped, so only `env` configures it."""
    args = [sys.executable, "-m", "admiralty.cli", "web", "--db", str(db)]
    args += ["--records", str(records), "--port", "0", *extra]
    environment = {k: v for k, v in os.environ.items() if not k.startswith("ADMIRALTY_")}
    return subprocess.Popen(
        args,
        cwd=REPO,
        env={**environment, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def served_url(process: subprocess.Popen) -> str:
    """The URL the process printed (`serving http://127.0.0.1:PORT/`)."""
    line = process.stdout.readline()
    assert line.startswith("serving http://127.0.0.1:"), line + process.stderr.read()
    return line.split()[1]


def stop_web(process: subprocess.Popen) -> tuple[int, str]:
    """Interrupt it as Ctrl-C would; its exit code and stderr."""
    process.send_signal(signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=15)
    finally:
        process.kill()
    return process.returncode, stderr
