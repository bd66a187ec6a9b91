"""A bot that looks around before it serves and tells on stderr, in one line `PRYING
{json}`, what it found: its user, host name, working directory and environment, the file
`--peek` names, how many processes it sees and whether one of them has the command line
`--spot` (both in hex, so the launcher does not take them for files of the bot's), and
whether 127.0.0.1:`--dial` answers. Then it answers option 0 to every request."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import sys
from pathlib import Path

from admiralty_sdk import Bot, serve


def peek(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError as error:
        return f"denied: {error.strerror}"


def processes() -> list[bytes]:
    """The command line of every process in sight."""
    seen = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):  # ended meanwhile
                seen.append((entry / "cmdline").read_bytes())
    return seen


def dial(port: int) -> str:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except OSError as error:
        return error.strerror or type(error).__name__
    return "connected"


class FirstOption(Bot):
    name = "prying"

    def decide(self, request) -> int:
        return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--peek", type=lambda text: bytes.fromhex(text).decode(), required=True)
    parser.add_argument("--spot", type=bytes.fromhex, required=True)
    parser.add_argument("--dial", type=int, required=True)
    args, _ = parser.parse_known_args()
    seen = processes()
    found = {
        "uid": os.getuid(),
        "host": socket.gethostname(),
        "cwd": os.getcwd(),
        "environment": dict(os.environ),
        "peek": peek(args.peek),
        "processes": len(seen),
        "spotted": args.spot in seen,
        "dial": dial(args.dial),
    }
    print("PRYING " + json.dumps(found), file=sys.stderr, flush=True)
    serve(FirstOption())
