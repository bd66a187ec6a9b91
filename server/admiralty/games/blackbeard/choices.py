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
from admiralty.games.blackbeard.data import load

DATA = load()

PASS = Option("pass", "pass", {})
STOP = Option("stop", "stop: give up the card's remaining Actions", {})
END = Option("end", "end the Card Play Phase", {})
YES = Option("yes", "yes", {"yes": True})
NO = Option("no", "no", {"yes": False})
YES_NO = (NO, YES)


def opt(key: str, label: str, **payload: Any) -> Option:
    """The one shared Option with this key, label and (hashable, scalar) payload."""
    return _opt(key, label, tuple(payload.items()))


@cache
def _opt(key: str, label: str, payload: tuple[tuple[str, Any], ...]) -> Option:
    return Option(key, label, dict(payload))


PAY, REFUSE = opt("pay", "pay", pay=True), opt("decline", "decline", pay=False)


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
    return tuple(
        Option(
            "order:" + ">".join(map(str, order)),
            "pay from holds " + ", ".join(map(str, order)),
            {"holds": list(order)},
        )
        for order in permutations(holds)
    )


@cache
def pirate_option(pirate: str) -> Option:
    """A Pirate card of the hand (deploy it, draft it, make him captain)."""
    return Option(f"pirate:{pirate}", DATA.pirates[pirate].name, {"pirate": pirate})


@cache
def target_pirate(pid: str) -> Option:
    """A pirate as the target of an act, or chosen to take a hit or challenge."""
    return Option(f"pirate:{pid}", DATA.pirates[pid].name, {"target": pid})


@cache
def step_option(kind: str, place: str | int) -> Option:
    """One step of a Move or of Fair Winds: into a port, a sea area or a transit box."""
    if kind == "port":
        assert isinstance(place, int)
        return Option(
            f"port:{place}", f"enter {DATA.ports[place].name}", {"target": place, "kind": kind}
        )
    assert isinstance(place, str)
    name = DATA.transits[place].name if kind == "transit" else DATA.areas[place].name
    return Option(
        f"{'transit' if kind == 'transit' else 'move'}:{place}",
        f"to {name}",
        {"target": place, "kind": kind},
    )


@cache
def area_options() -> tuple[Option, ...]:
    """Every sea area, in the data's order."""
    return tuple(
        Option(f"area:{area}", DATA.areas[area].name, {"area": area}) for area in DATA.areas
    )
