"""The options of Blackbeard's requests: stable keys, short labels, flat JSON payloads.

Options are immutable, so each distinct one is built once and shared: random playouts
build hundreds of thousands of them otherwise. The request kinds and their payloads are
listed in docs/games/blackbeard.md ("Requests").
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, permutations
from typing import Any

from admiralty.games.base import Option

PASS = Option("pass", "pass", {})
STOP = Option("stop", "stop: give up the card's remaining Actions", {})
END = Option("end", "end the Card Play Phase", {})
YES = Option("yes", "yes", {"yes": True})
NO = Option("no", "no", {"yes": False})
YES_NO = (NO, YES)
PASS_ONLY = (PASS,)


def opt(key: str, label: str, **payload: Any) -> Option:
    """The one shared Option with this key, label and (hashable, scalar) payload."""
    return _opt(key, label, tuple(payload.items()))


@cache
def _opt(key: str, label: str, payload: tuple[tuple[str, Any], ...]) -> Option:
    return Option(key, label, dict(payload))


@cache
def subsets(holds: tuple[int, ...]) -> tuple[Option, ...]:
    """Every subset of the non-empty holds `holds` to cash, the empty one first
    [blackbeard §9.43]."""
    out = []
    for size in range(len(holds) + 1):
        for chosen in combinations(holds, size):
            key = "cash:" + ("+".join(map(str, chosen)) if chosen else "none")
            label = "cash holds " + ", ".join(map(str, chosen)) if chosen else "cash nothing"
            out.append(Option(key, label, {"holds": list(chosen)}))
    return tuple(out)


@cache
def orders(holds: tuple[int, ...]) -> tuple[Option, ...]:
    """Every order of the non-empty holds `holds` to pay a Booty Grab from [blackbeard §9.63]."""
    return tuple(Option("order:" + ">".join(map(str, order)),
                        "pay from holds " + ", ".join(map(str, order)), {"holds": list(order)})
                 for order in permutations(holds))
