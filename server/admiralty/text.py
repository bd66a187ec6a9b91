"""Strings a bot chose, made safe to show an operator.

A bot's name, version, error messages and stderr end up on the operator's terminal, where
ESC starts a control sequence (an OSC sets the window title, a CSI clears the screen), BEL
rings, CR and BS write over what was printed and bidi controls reorder a line. The referee
escapes them where they enter (Hello, incident details, a launched bot's stderr) and every
command escapes them again where it prints, so a name stored by an older admiralty is safe
too. Every layer imports `printable` from here: it sits below them all, and so
`display_names`, which tells two entrants of one bot apart the same way in every table,
screen and page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_CONTROLS = "\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
"""C0 but newline, DEL, C1, the line and paragraph separators and every bidi control."""
_UNSAFE = re.compile(f"[{_CONTROLS}\n]")
_UNSAFE_BUT_NEWLINES = re.compile(f"[{_CONTROLS}]")


def printable(text: str, lines: bool = False) -> str:
    r"""`text` with every control character escaped as a Python string literal writes it
    (ESC as `\x1b`, CR as `\r`, U+202E as `\u202e`): still recognisable, and inert on a
    terminal. With `lines`, newlines are kept (a stderr tail shown line by line). Escaping
    twice changes nothing. Give the result to rich as `Text` (or with markup off): in
    markup, `[bold]` in a name would style it and `[/]` would fail to print.

    >>> printable("\x1b]0;owned\x07 [bold]x")
    '\\x1b]0;owned\\x07 [bold]x'
    """
    return (_UNSAFE_BUT_NEWLINES if lines else _UNSAFE).sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def display_names(names: Sequence[str]) -> list[str]:
    """Bot names as every table, screen and page shows them: a name entered again gets its
    count ("random", "random #2"), so two entrants of one bot can be told apart.

    >>> display_names(["random", "greedy", "random"])
    ['random', 'greedy', 'random #2']
    """
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return unique
