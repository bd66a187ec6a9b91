"""The options of every Jamaica request: stable keys, short labels, flat payloads.

Options are immutable, so each distinct one is built once and shared (random playouts
build millions of them otherwise). Payload fields per request kind are listed in
docs/games/jamaica.md; ships are seat numbers, with GHOST (-1) for the Ghost Ship.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from admiralty.games.base import Option
from admiralty.games.jamaica.data import load

if TYPE_CHECKING:
    from admiralty.games.jamaica.ships import Load, Target

GHOST = -1
"""The Ghost Ship's ship id in payloads, events and views (players are seats 0..n-1)."""

PASS = Option("pass", "pass", {})


def ship_name(ship: int) -> str:
    return "the Ghost Ship" if ship == GHOST else f"seat {ship}"


@cache
def dice_options(a: int, b: int) -> tuple[Option, ...]:
    """Both orders of the rolled dice; one option when they are equal [jamaica §5.1]."""
    orders = [(a, b)] if a == b else [(a, b), (b, a)]
    return tuple(
        Option(f"dice:sun={m},moon={e}", f"morning {m}, evening {e}", {"morning": m, "evening": e})
        for m, e in orders
    )


@cache
def card_option(card: int) -> Option:
    faces = load().cards[card]
    return Option(f"card:{card}", f"{faces.morning} / {faces.evening}", {"card": card})


def hand_options(hand: list[int]) -> tuple[Option, ...]:
    return options_of_hand(tuple(hand))


@cache
def options_of_hand(hand: tuple[int, ...]) -> tuple[Option, ...]:
    """`hand_options` of a hand as a tuple, built once per hand: hands are few (3 or 4 of
    11 cards, sorted) and every seat is asked for its card every round."""
    return tuple(card_option(card) for card in hand)


@cache
def gunpowder_options(have: int) -> tuple[Option, ...]:
    return tuple(
        Option(f"gunpowder:{n}", f"spend {n} gunpowder", {"amount": n}) for n in range(have + 1)
    )


@cache
def hold_option(
    hold: int, empty_first: bool, kind: str | None, count: int, load_kind: str, load_count: int
) -> Option:
    """Load `load_count` `load_kind` into an empty `hold` (`hold:h`), or empty it of its
    `count` `kind` first (`empty:h`)."""
    if empty_first:
        return Option(
            f"empty:{hold}",
            f"dump the {count} {kind} of hold {hold} and load there",
            {
                "hold": hold,
                "load_kind": load_kind,
                "load_count": load_count,
                "kind": kind,
                "count": count,
            },
        )
    return Option(
        f"hold:{hold}",
        f"load into hold {hold}",
        {"hold": hold, "load_kind": load_kind, "load_count": load_count, "kind": None, "count": 0},
    )


def bank_load_options(
    kinds: Sequence[str | None],
    counts: Sequence[int],
    targets: Sequence[Target],
    kind: str,
    amount: int,
    bank: int,
) -> tuple[int, tuple[Option, ...]]:
    """The loads of `amount` `kind` into `targets` (holds holding `kinds`, `counts` of
    them) that get any token from a bank holding `bank` of it [jamaica G20], as options, and
    the most tokens one of them loads (none: no load). Worked out in one pass, the options
    made as they are found: nearly every turn loads.

    The hold is emptied before the bank gives [jamaica §6.1.3]: with allow_dump_same_kind,
    a hold of `kind` emptied first refills the bank it then loads from.
    """
    most, options = 0, []
    for hold, dump in targets:
        count = min(amount, bank + (counts[hold] if kinds[hold] == kind else 0))
        if count:
            options.append(hold_option(hold, dump, kinds[hold], counts[hold], kind, count))
            if count > most:
                most = count
    return most, tuple(options)


def hold_options(
    kinds: Sequence[str | None], counts: Sequence[int], loads: Sequence[Load], kind: str
) -> tuple[Option, ...]:
    """The `loads` of `kind` into a ship whose holds hold `kinds` and `counts`, as options."""
    return tuple(
        [
            hold_option(hold, dump, kinds[hold], counts[hold], kind, count)
            for hold, dump, count in loads
        ]
    )


@cache
def pay_option(amounts: tuple[int, ...]) -> Option:
    holds = [h for h, a in enumerate(amounts) if a]
    taken = [amounts[h] for h in holds]
    key = ",".join(f"{h}={a}" for h, a in zip(holds, taken, strict=True))
    return Option(f"pay:{key}", f"pay from holds {key}", {"holds": holds, "amounts": taken})


@cache
def target_option(ship: int) -> Option:
    key = "ghost" if ship == GHOST else str(ship)
    return Option(f"target:{key}", f"attack {ship_name(ship)}", {"target": ship})


@cache
def sabre_options(own: bool) -> tuple[Option, ...]:
    whose = "own" if own else "opponent"
    label = "reroll your own die" if own else "force the opponent to reroll"
    return (PASS, Option(f"sabre:reroll-{whose}", label, {"reroll": whose}))


GHOST_DIRECTIONS = (
    Option("ghost:forward", "Ghost Ship sails forward", {"direction": "forward"}),
    Option("ghost:backward", "Ghost Ship sails backward", {"direction": "backward"}),
)

LOOT_NONE = Option("loot:none", "take nothing", {"loot": "none"})


@cache
def loot_hold(hold: int, kind: str, count: int) -> Option:
    return Option(
        f"loot:hold:{hold}",
        f"steal hold {hold} ({count} {kind})",
        {"loot": "hold", "hold": hold, "kind": kind, "count": count},
    )


@cache
def loot_treasure(treasure: str) -> Option:
    name = load().treasures[treasure].name
    return Option(
        f"loot:treasure:{treasure}", f"steal {name}", {"loot": "treasure", "treasure": treasure}
    )


@cache
def loot_blind(slot: int) -> Option:
    return Option(
        f"loot:blind:{slot}",
        f"steal face-down treasure #{slot + 1}",
        {"loot": "blind", "slot": slot},
    )


@cache
def give_option(treasure: str) -> Option:
    card = load().treasures[treasure]
    what = card.id if card.kind == "power" else str(card.value)
    return Option(
        f"give:{card.kind}:{what}",
        f"give {card.name}",
        {"loot": "give", "treasure": treasure, "value": card.value},
    )
