"""Game engines behind one contract (see `admiralty.games.base`).

>>> from admiralty.games import GAMES, load_game
>>> "jamaica" in GAMES
True
"""

from __future__ import annotations

from importlib import import_module

from admiralty.games.base import (
    Event,
    Game,
    GameState,
    IllegalAction,
    Option,
    Outcome,
    Request,
    Viewer,
    Window,
    visible_events,
)
from admiralty.games.info import Actor, GameInfo, OptionSpec

_REGISTRY = {
    "black_fleet": "admiralty.games.black_fleet:BlackFleet",
    "blackbeard": "admiralty.games.blackbeard:Blackbeard",
    "jamaica": "admiralty.games.jamaica:Jamaica",
}

GAMES: tuple[str, ...] = tuple(_REGISTRY)
"""The names of every registered game."""


def load_game(name: str) -> Game:
    """The game called `name`; ValueError naming the known games otherwise."""
    try:
        module_name, class_name = _REGISTRY[name].split(":")
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None
    return getattr(import_module(module_name), class_name)()


__all__ = [
    "GAMES",
    "Actor",
    "Event",
    "Game",
    "GameInfo",
    "GameState",
    "IllegalAction",
    "Option",
    "OptionSpec",
    "Outcome",
    "Request",
    "Viewer",
    "Window",
    "load_game",
    "visible_events",
]
