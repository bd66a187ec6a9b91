"""The terminal under a live screen: keys are neither echoed nor held for Enter, so a key
pressed while a match plays never tears the screen; its modes come back however the screen
ends (Ctrl-C included)."""

from __future__ import annotations

import os
import sys
import termios
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO


@contextmanager
def quiet_keys(stdin: IO[str] | None = None) -> Iterator[int | None]:
    """cbreak mode without echo on `stdin` (sys.stdin) if it is the terminal this process
    is in the foreground of; yields its file descriptor, or None (and nothing changes)
    otherwise: a background job that set its terminal's modes would be stopped."""
    stream = stdin or sys.stdin
    try:
        fd = stream.fileno()
        saved = termios.tcgetattr(fd)
        foreground = os.tcgetpgrp(fd) == os.getpgrp()
    except (OSError, ValueError, termios.error):  # not a terminal, or no stdin at all
        foreground = False
    if not foreground:
        yield None
        return
    try:
        tty.setcbreak(fd)
        yield fd
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
