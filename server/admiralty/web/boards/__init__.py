"""Each game's board as SVG, drawn on the server from the engine's own `view(viewer)`.

The browser only shows and animates these drawings; no rule or view is implemented twice.
A public page is drawn from the public view only, so twin matches that differ only in
hidden information give the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import Any

Drawer = Callable[[Mapping[str, Any], Sequence[str]], str]


def board_svg(game: str, view: Mapping[str, Any], seats: Sequence[str]) -> str:
    """The `<svg>` of `game`'s board in `view`, with the seats' bot names."""
    module = import_module(f"admiralty.web.boards.{game}")
    draw: Drawer = module.draw
    return draw(view, seats)
