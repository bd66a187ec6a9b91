"""The game data, read from the TOML files in `data/`.

Everything a printing of the game could change (the track, the cards, the treasures, the
dice, the start resources) lives in those files, each item labelled with its basis, sources
and confidence (`admiralty.games.provenance`), so a person holding the physical game can
correct it without touching code. This module only turns them into frozen records and
checks that they fit together.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from admiralty.games import provenance

DATA_DIR = Path(__file__).parent / "data"

STAR = "star"
"""The combat die face that wins the battle at once."""

MOVES = {"forward": 1, "backward": -1}
"""Card symbols that move a ship, with their direction along the track."""


@dataclass(frozen=True, slots=True)
class Space:
    id: int
    kind: str
    cost: int
    score: int
    lane: str
    fork: str | None
    next: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    morning: str
    evening: str


@dataclass(frozen=True, slots=True)
class Treasure:
    id: str
    name: str
    kind: str
    """"power" (face up), "treasure" or "cursed" (face down)."""
    value: int
    effect: str | None
    params: tuple[tuple[str, Any], ...]

    def param(self, name: str) -> Any:
        return dict(self.params)[name]


@dataclass(frozen=True, slots=True)
class Data:
    spaces: tuple[Space, ...]
    port_royal: int
    pre_start_score: int
    pays: dict[str, str]
    cards: dict[int, Card]
    treasures: dict[str, Treasure]
    action_faces: tuple[int, ...]
    action_dice: int
    combat_faces: tuple[int | str, ...]
    tokens: tuple[str, ...]
    bank: dict[str, int]
    holds: int
    hand_size: int
    start_holds: tuple[tuple[str, int], ...]
    deck_size: int
    min_players: int
    max_players: int
    default_players: int
    ghost_players: int
    ghost_holds: tuple[tuple[str, int], ...]
    ghost_treasure: str
    ghost_keeps: frozenset[str]
    score_token: str
    combat_token: str
    powers: dict[str, str]
    """Power card ids by effect: the engine finds powers by what they do, not by name."""


_RECORD_KEYS = {"id", "name", "kind", "value", "effect"}


def _read(name: str) -> dict[str, Any]:
    return provenance.load(DATA_DIR / name)


def _contents(rows: list[dict[str, Any]]) -> tuple[tuple[str, int], ...]:
    return tuple((row["kind"], row["count"]) for row in rows)


@cache
def load() -> Data:
    """The game data (read once per process) after checking it is consistent."""
    track, cards, treasures = _read("track.toml"), _read("cards.toml"), _read("treasures.toml")
    dice, setup = _read("dice.toml"), _read("setup.toml")
    data = Data(
        spaces=tuple(
            Space(
                s["id"],
                s["kind"],
                s["cost"],
                s["score"],
                s["lane"],
                s.get("fork"),
                tuple(s["next"]),
            )
            for s in sorted(track["space"], key=lambda s: s["id"])
        ),
        port_royal=track["port_royal"],
        pre_start_score=track["pre_start_score"],
        pays=dict(track["pays"]),
        cards={c["id"]: Card(c["id"], c["morning"], c["evening"]) for c in cards["card"]},
        treasures={
            t["id"]: Treasure(
                t["id"],
                t["name"],
                t["kind"],
                t["value"],
                t.get("effect"),
                tuple(sorted((k, v) for k, v in t.items() if k not in _RECORD_KEYS)),
            )
            for t in treasures["treasure"]
        },
        action_faces=tuple(dice["action_die"]["faces"]),
        action_dice=dice["action_die"]["count"],
        combat_faces=tuple(dice["combat_die"]["faces"]),
        tokens=tuple(setup["bank"]),
        bank=dict(setup["bank"]),
        holds=setup["ship"]["holds"],
        hand_size=setup["ship"]["hand_size"],
        start_holds=_contents(setup["ship"]["start"]),
        deck_size=setup["treasure_deck"]["size"],
        min_players=setup["players"]["min"],
        max_players=setup["players"]["max"],
        default_players=setup["players"]["default"],
        ghost_players=setup["ghost"]["players"],
        ghost_holds=_contents(setup["ghost"]["holds"]),
        ghost_treasure=setup["ghost"]["treasure"],
        ghost_keeps=frozenset(setup["ghost"]["keeps"]),
        score_token=setup["tokens"]["score"],
        combat_token=setup["tokens"]["combat"],
        powers={t["effect"]: t["id"] for t in treasures["treasure"] if t.get("effect")},
    )
    _check(data)
    return data


def _check(data: Data) -> None:
    """Fail loudly on a data file that would break the engine, naming what is wrong."""
    ids = [space.id for space in data.spaces]
    if ids != list(range(len(ids))):
        raise ValueError(f"track.toml: space ids must be 0..{len(ids) - 1} without gaps")
    for space in data.spaces:
        if not space.next or any(n not in range(len(ids)) for n in space.next):
            raise ValueError(f"track.toml: space {space.id} has a bad `next` {space.next}")
    if data.spaces[data.port_royal].kind != "port_royal":
        raise ValueError("track.toml: `port_royal` must name the port_royal space")
    symbols = {c.morning for c in data.cards.values()} | {c.evening for c in data.cards.values()}
    unknown = symbols - set(MOVES) - set(data.tokens)
    if unknown:
        raise ValueError(f"cards.toml: unknown symbols {sorted(unknown)}")
    if set(data.pays.values()) - set(data.tokens):
        raise ValueError("track.toml: [pays] names a token that is not in the bank")
    lairs = sum(space.kind == "lair" for space in data.spaces)
    if not data.deck_size <= min(lairs, len(data.treasures) - 1):
        raise ValueError("setup.toml: the treasure deck needs a lair per card")
    if data.ghost_treasure not in data.treasures:
        raise ValueError("setup.toml: [ghost] treasure is not a treasure id")
    missing = {"hand_size", "reroll", "combat_bonus", "extra_hold"} - set(data.powers)
    if missing:
        raise ValueError(f"treasures.toml: no power with effect {sorted(missing)}")
    if {data.score_token, data.combat_token} - set(data.tokens):
        raise ValueError("setup.toml: [tokens] names a token that is not in the bank")
