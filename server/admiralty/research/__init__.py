"""Adapters for game-AI research: PettingZoo environments, OpenSpiel games and a
single-agent Gymnasium environment over the engines, sharing one action space
(`actions`) and one observation encoding (`encoding`, the SDK's, which bots use too).

The third-party libraries are optional extras, imported only by the adapter that needs
them (`require`), so the engines run without them; the encoding needs numpy alone.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

EXTRAS = {
    "pettingzoo": "pettingzoo",
    "gymnasium": "pettingzoo",
    "numpy": "encoding",
    "pyspiel": "openspiel",
}
"""The optional extra of this project that installs each third-party module."""


def require(module: str) -> ModuleType:
    """`module`, or an ImportError naming the one command that installs it."""
    try:
        return import_module(module)
    except ImportError as error:
        extra = EXTRAS[module.partition(".")[0]]
        raise ImportError(f"{module} is missing: pip install 'admiralty[{extra}]'") from error
