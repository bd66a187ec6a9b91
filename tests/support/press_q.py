"""Run a command in a terminal of its own and press q once it shows its keys, as a person
would: `python press_q.py COMMAND`; exits with the command's exit code (1 if it never
showed its keys, 124 if it stopped printing for 30 seconds). The README test runs the
interactive replay so."""

from __future__ import annotations

import os
import pty
import select
import sys

KEYS_SHOWN = b"q quit"
"""What the interactive replay shows once it reads keys (`interactive.KEYS_HELP`)."""
QUIET_FOR = 30.0


def in_a_terminal(command: str) -> int:
    """Run `command` in a terminal of its own, press q once it shows its keys; its exit
    code."""
    pid, terminal = pty.fork()
    if pid == 0:
        os.execvp("bash", ["bash", "-c", command])
    shown, pressed = b"", False
    while True:
        ready, _, _ = select.select([terminal], [], [], QUIET_FOR)
        if not ready:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            sys.stderr.write(shown.decode(errors="replace"))
            return 124
        try:
            chunk = os.read(terminal, 65536)
        except OSError:  # the terminal closed: the command ended
            break
        shown += chunk
        if not pressed and KEYS_SHOWN in shown:
            os.write(terminal, b"q")
            pressed = True
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status) if pressed else 1
    if code:
        sys.stderr.write(shown.decode(errors="replace"))  # what it said, for the failure
    return code


if __name__ == "__main__":
    sys.exit(in_a_terminal(sys.argv[1]))
