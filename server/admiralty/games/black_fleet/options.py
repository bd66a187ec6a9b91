"""The options a Black Fleet request can list: stable keys, labels and flat payloads.

Every option is a pure function of its arguments, so each one is built once and
cached; requests then share the same immutable `Option` objects. Payload field
names are the same across kinds: `space`, `steps`, `port`, `zone`, `card`, `seat` (the
other seat concerned), `ship`, `navy`, `action`, `cost`, `target`, `colour`.
"""

from __future__ import annotations

from functools import cache

from admiralty.games.base import Option

PASS = Option("pass", "pass", {})
STOP = Option("stop", "end this ship's activation here", {})
SWAP = Option("swap:ships", "swap your merchant and pirate (False Colours)", {})
BUY_NONE = Option("buy:none", "buy nothing", {"buy": "none"})


@cache
def place(port: str, name: str, colour: str, space: int) -> Option:
    return Option(
        f"place:{port}:{space}",
        f"merchant to space {space} by {name}, loading {colour}",
        {"port": port, "space": space, "colour": colour},
    )


@cache
def zone(key: str) -> Option:
    return Option(f"zone:{key}", f"pirate to the {key} distant sea", {"zone": key})


@cache
def lair(space: int) -> Option:
    return Option(f"lair:{space}", f"pirate to the lair on space {space}", {"space": space})


@cache
def movement_card(
    card_id: str, navy: str, navy_move: int, pirate: int, merchant: int, fortune: str
):
    return Option(
        f"card:{card_id}",
        f"{card_id}: {navy} navy {navy_move}, pirate {pirate}, merchant {merchant}, {fortune}",
        {
            "card": card_id,
            "navy": navy,
            "navy_move": navy_move,
            "pirate": pirate,
            "merchant": merchant,
            "fortune": fortune,
        },
    )


@cache
def fortune(card_id: str, title: str) -> Option:
    return Option(f"fortune:{card_id}", f"play {title}", {"card": card_id, "title": title})


@cache
def discard(card_id: str, title: str) -> Option:
    return Option(f"discard:{card_id}", f"discard {title}", {"card": card_id, "title": title})


@cache
def ship(kind: str, navy: str | None = None) -> Option:
    if navy:
        return Option(
            f"ship:navy:{navy}", f"activate the {navy} navy ship", {"ship": "navy", "navy": navy}
        )
    return Option(f"ship:{kind}", f"activate your {kind}", {"ship": kind})


@cache
def move(space: int, steps: int) -> Option:
    return Option(
        f"move:{space}", f"sail {steps} to space {space}", {"space": space, "steps": steps}
    )


_ACTION_LABELS = {
    "deliver": "deliver at port {}",
    "top_up": "top up at port {}",
    "attack": "attack seat {}'s merchant",
    "attack_pirate": "attack seat {}'s pirate",
    "sink": "sink seat {}'s pirate",
    "broadside": "fire on seat {}'s pirate (Armed Merchantman)",
}


@cache
def action(kind: str, subject: str | int | None = None) -> Option:
    """A ship action; `subject` is the port key (deliver, top_up) or target seat (attacks)."""
    if subject is None:
        return Option(f"action:{kind}", kind, {"action": kind})
    field = "port" if kind in ("deliver", "top_up") else "seat"
    return Option(
        f"action:{kind}:{subject}",
        _ACTION_LABELS[kind].format(subject),
        {"action": kind, field: subject},
    )


@cache
def target(kind: str, subject: str | int) -> Option:
    """A card's target: a `seat`, a seat's `merchant` or `pirate`, a `navy`, a `lair`
    space, or the `cube` colour Letter of Marque takes."""
    field = {"navy": "navy", "lair": "space", "cube": "colour"}.get(kind, "seat")
    return Option(
        f"target:{kind}:{subject}", f"target {kind} {subject}", {"target": kind, field: subject}
    )


@cache
def buy_development(cost: int, card_id: str, title: str) -> Option:
    return Option(
        f"buy:dev:{cost}",
        f"buy {title} for {cost}",
        {"buy": "development", "cost": cost, "card": card_id, "title": title},
    )


@cache
def buy_victory(cost: int) -> Option:
    return Option(
        "buy:victory", f"buy your victory card for {cost}", {"buy": "victory", "cost": cost}
    )


@cache
def port(key: str, name: str) -> Option:
    return Option(f"port:{key}", f"name {name}", {"port": key, "name": name})
