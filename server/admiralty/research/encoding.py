"""The observation encoding of the research adapters: `admiralty_sdk.encoding`, the one
a bot imports too, so a policy trained here reads the same numbers over the wire.

Its layouts take their vocabularies (cards, ports, pirates...) from a data file shipped
with the SDK, which imports nothing of the server; `vocabularies()` derives that file
from the games' own data, and the tests check the two agree. After a change to a game's
data, write the file again:

    python -m admiralty.research.encoding

>>> from admiralty.games import load_game
>>> state = load_game("jamaica").new_game(3, seed=1)
>>> vector = encode("jamaica", state.view(0), 3)
>>> len(vector) == size("jamaica")
True
>>> names("jamaica")[:3]
['round', 'captain[0]', 'captain[1]']
"""

from __future__ import annotations

import json
from typing import Any

from admiralty.games import load_game
from admiralty.games.blackbeard.data import load as blackbeard_data
from admiralty.games.jamaica.data import load as jamaica_data
from admiralty.games.jamaica.options import GHOST
from admiralty_sdk.encoding import (
    LAYOUTS,
    VOCABULARIES,
    Encoder,
    encode,
    layout,
    names,
    payload_layout,
    size,
    view_size,
)


def _seats(game: str) -> int:
    return load_game(game).info.max_players


def _jamaica() -> dict[str, Any]:
    info, data = load_game("jamaica").static_info(), jamaica_data()
    return {
        "seats": _seats("jamaica"),
        "ghost": GHOST,
        "cards": [card["id"] for card in info["cards"]],
        "powers": [t["id"] for t in info["treasures"] if t["kind"] == "power"],
        "treasure_values": sorted({t["value"] for t in info["treasures"]}),
        "treasures": [t["id"] for t in info["treasures"]],
        "lairs": [space["id"] for space in info["spaces"] if space["kind"] == "lair"],
        "goods": list(data.bank),
        "holds": data.holds,
        "combat_die": list(info["combat_die"]),
    }


def _black_fleet() -> dict[str, Any]:
    info = load_game("black_fleet").static_info()
    board, rules = info["board"], info["rules"]
    return {
        "seats": _seats("black_fleet"),
        "movement": [card["id"] for card in info["movement_cards"]],
        "fortune": [card["id"] for card in info["fortune_cards"]],
        "development": [card["id"] for card in info["development_cards"]],
        "goods": list(board["goods"]),
        "navies": list(board["navy_start"]),
        "ports": [port["key"] for port in board["ports"]],
        "zones": [sea["key"] for sea in board["distant_seas"]],
        "development_costs": list(rules["development_costs"]),
    }


def _blackbeard() -> dict[str, Any]:
    data = blackbeard_data()
    return {
        "seats": _seats("blackbeard"),
        "pirates": list(data.pirates),
        "events": list(data.events),
        "event_titles": [card.key for card in data.events.values()],
        "ports": list(data.ports),
        "areas": list(data.areas),
        "transits": list(data.transits),
        "nations": list(data.nations),
        "kcs": list(data.kcs),
        "ship_types": list(data.ship_types),
        "governors": list(data.governors),
        "merchants": list(data.merchants),
        "merchant_types": list(data.merchant_types),
        "warships": list(data.warships),
    }


def vocabularies() -> dict[str, dict[str, Any]]:
    """Every game's vocabularies, from its data: what `VOCABULARIES` must hold."""
    return {"jamaica": _jamaica(), "black_fleet": _black_fleet(), "blackbeard": _blackbeard()}


def write_vocabularies() -> None:
    """Write `vocabularies()` to the SDK's file, one vocabulary a line."""
    from admiralty_sdk.encoding import layouts

    games = [
        f"  {json.dumps(game)}: {{\n"
        + ",\n".join(f"    {json.dumps(name)}: {json.dumps(items)}" for name, items in v.items())
        + "\n  }"
        for game, v in vocabularies().items()
    ]
    layouts.VOCABULARY_FILE.write_text("{\n" + ",\n".join(games) + "\n}\n")


__all__ = [
    "LAYOUTS",
    "VOCABULARIES",
    "Encoder",
    "encode",
    "layout",
    "names",
    "payload_layout",
    "size",
    "view_size",
    "vocabularies",
]

if __name__ == "__main__":
    write_vocabularies()
