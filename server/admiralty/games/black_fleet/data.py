"""The game's data files, read with `tomllib` and checked once.

Everything a person holding the physical game might want to correct lives in
`data/*.toml`: the map (`board.toml`), the movement deck (`movement.toml`), the
fortune cards (`fortune.toml`), the development cards (`development.toml`) and the
setup figures (`setup.toml`), each item labelled known or reconstructed
(`admiralty.games.provenance`). This module turns those files into frozen records and
refuses files that would make the engine misbehave (unknown effect kinds, wrong
card counts, a missing label), so a typing mistake fails loudly at load time, not mid-game.

>>> data = load_data()
>>> len(data.movement), len(data.fortune), len(data.development)
(44, 44, 24)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from admiralty.games import provenance
from admiralty.games.black_fleet.board import Board

DATA_DIR = Path(__file__).parent / "data"

SHIPS = ("merchant", "pirate")
NAVIES = ("yellow", "purple")

FORTUNE_ICONS = {"none": 0, "draw1": 1, "draw2": 2, "discard1": -1}
"""A movement card's fortune icon as a number: cards drawn (negative = discarded)."""

SUMMED_MODIFIERS = frozenset(
    {
        "move_bonus",
        "sale_bonus",
        "charter_bonus",
        "sink_bonus",
        "attack_bonus",
        "bury_bonus",
        "attack_toll",
        "cube_stolen_gain",
        "turn_income",
        "fortune_draw_bonus",
    }
)
"""Modifiers that add up when several cards give them (every other kind takes the maximum)."""

MAXED_MODIFIERS = frozenset(
    {
        # numeric: the best card wins
        "move_min",
        "attack_range",
        "capacity",
        "sell_anywhere",
        "lair_beach",
        "movement_hand",
        "fortune_limit",
        "broadside",
        "pirate_actions",
        "attack_takes",
        # flags (amount 1)
        "pass_all",
        "reenter_at_lair",
        "lairs_adjacent",
        "immune_on_lair",
        "name_port_on_buy",
        "swap_own_ships",
        "bury_after_attack",
        "pirate_attacks_pirates",
        "immune_next_to_port",
        "both_navies",
        "swap_card_values",
        "extra_navy",
        "top_up",
        "merchant_immune",
    }
)
"""Every other modifier kind the engine interprets."""

FORTUNE_EFFECTS = {
    "boost": (),
    "free_move": ("target", "steps"),
    "pirate_to_lair": (),
    "steal": ("source", "amount"),
    "objective": ("condition", "reward"),
}
"""Fortune effect kinds and the parameters each requires."""

WINDOWS = ("start", "first", "between", "last")
OBJECTIVE_CONDITIONS = frozenset(
    {
        "sold_at_port",
        "buried_on_beach",
        "sank_merchant",
        "sank_laden_pirate",
        "pirate_on_lair_with_treasure",
    }
)


@dataclass(frozen=True, slots=True)
class Modifier:
    """One rule change; `key` is the kind plus the ship it concerns (`move_bonus.pirate`)."""

    key: str
    amount: int
    kind: str = field(init=False, repr=False, compare=False)
    """The key without its ship (`move_bonus`), split once here as the rules read it often."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", self.key.split(".")[0])


@dataclass(frozen=True, slots=True)
class MovementCard:
    id: str
    navy: str
    navy_move: int
    pirate: int
    merchant: int
    fortune: str

    @property
    def icon(self) -> int:
        """Fortune cards drawn at the end of the turn (negative: discarded)."""
        return FORTUNE_ICONS[self.fortune]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "navy": self.navy,
            "navy_move": self.navy_move,
            "pirate": self.pirate,
            "merchant": self.merchant,
            "fortune": self.fortune,
        }


@dataclass(frozen=True, slots=True)
class FortuneCard:
    id: str
    title: str
    kind: str
    text: str
    effect: str
    windows: frozenset[str]
    before: tuple[str, ...]
    boosts: tuple[Modifier, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "kind": self.kind,
            "text": self.text,
            "effect": self.effect,
            "windows": [w for w in WINDOWS if w in self.windows],
            "before": list(self.before),
            "boosts": {m.key: m.amount for m in self.boosts},
            **self.params,
        }


@dataclass(frozen=True, slots=True)
class DevelopmentCard:
    id: str
    cost: int
    title: str
    text: str
    effects: tuple[Modifier, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "cost": self.cost,
            "title": self.title,
            "text": self.text,
            "effects": {m.key: m.amount for m in self.effects},
        }


@dataclass(frozen=True, slots=True)
class Setup:
    """The figures of `setup.toml`: player counts, hands, holds, rewards, costs, caps."""

    min_players: int
    max_players: int
    default_players: int
    colours: tuple[str, ...]
    start_money: int
    seat_bonus: tuple[int, ...]
    movement_hand: int
    fortune_start: int
    fortune_limit: int
    merchant_capacity: int
    pirate_capacity: int
    cubes_per_colour: int
    attack_reward: int
    sink_reward: int
    development_costs: tuple[int, ...]
    victory_costs: tuple[int, ...]
    round_cap: int


@dataclass(frozen=True, slots=True)
class GameData:
    board: Board
    movement: Mapping[str, MovementCard]
    fortune: Mapping[str, FortuneCard]
    development: Mapping[str, DevelopmentCard]
    setup: Setup

    def development_by_cost(self, cost: int) -> list[str]:
        return [card.id for card in self.development.values() if card.cost == cost]


def _read(directory: Path, name: str) -> dict[str, Any]:
    return provenance.load(directory / name)


def parse_modifier(entry: Mapping[str, Any]) -> Modifier:
    """A modifier from its TOML table; unknown kinds or ships are refused."""
    kind = entry["kind"]
    if kind not in SUMMED_MODIFIERS and kind not in MAXED_MODIFIERS:
        raise ValueError(f"unknown modifier kind {kind!r}")
    ship = entry.get("ship")
    if ship is not None and ship not in ("merchant", "pirate", "navy", "next_navy"):
        raise ValueError(f"unknown ship {ship!r} in modifier {kind!r}")
    key = f"{kind}.{ship}" if ship else kind
    return Modifier(key, int(entry.get("amount", 1)))


def _movement(raw: dict[str, Any]) -> dict[str, MovementCard]:
    cards = {}
    for entry in raw["cards"]:
        if entry["navy"] not in NAVIES or entry["fortune"] not in FORTUNE_ICONS:
            raise ValueError(f"bad movement card {entry}")
        cards[entry["id"]] = MovementCard(
            entry["id"],
            entry["navy"],
            entry["navy_move"],
            entry["pirate"],
            entry["merchant"],
            entry["fortune"],
        )
    return cards


_FORTUNE_FIELDS = {"ids", "title", "kind", "text", "windows", "before", "effect", "boosts"}


def _fortune(raw: dict[str, Any], board: Board) -> dict[str, FortuneCard]:
    cards = {}
    for entry in raw["cards"]:
        effect = entry["effect"]
        missing = [name for name in FORTUNE_EFFECTS.get(effect, ("?",)) if name not in entry]
        if effect not in FORTUNE_EFFECTS or missing:
            raise ValueError(f"fortune card {entry['title']!r}: bad effect {effect!r} {missing}")
        windows = frozenset(entry["windows"])
        if not windows <= set(WINDOWS) or not set(entry["before"]) <= {*SHIPS, "navy"}:
            raise ValueError(f"fortune card {entry['title']!r}: bad windows or before")
        params = {k: v for k, v in entry.items() if k not in _FORTUNE_FIELDS}
        if effect == "objective" and params["condition"] not in OBJECTIVE_CONDITIONS:
            raise ValueError(f"unknown objective condition {params['condition']!r}")
        if params.get("port") is not None and params["port"] not in board.ports:
            raise ValueError(f"unknown port {params['port']!r}")
        boosts = tuple(parse_modifier(m) for m in entry.get("boosts", ()))
        for card_id in entry["ids"]:
            cards[card_id] = FortuneCard(
                card_id,
                entry["title"],
                entry["kind"],
                entry["text"],
                effect,
                windows,
                tuple(entry["before"]),
                boosts,
                params,
            )
    return cards


def _development(raw: dict[str, Any]) -> dict[str, DevelopmentCard]:
    return {
        entry["id"]: DevelopmentCard(
            entry["id"],
            entry["cost"],
            entry["title"],
            entry["text"],
            tuple(parse_modifier(m) for m in entry["effects"]),
        )
        for entry in raw["cards"]
    }


def _setup(raw: dict[str, Any]) -> Setup:
    players, hands, ships = raw["players"], raw["hands"], raw["ships"]
    return Setup(
        min_players=players["min"],
        max_players=players["max"],
        default_players=players["default"],
        colours=tuple(players["colours"]),
        start_money=raw["money"]["start"],
        seat_bonus=tuple(raw["money"]["seat_bonus"]),
        movement_hand=hands["movement"],
        fortune_start=hands["fortune_start"],
        fortune_limit=hands["fortune_limit"],
        merchant_capacity=ships["merchant_capacity"],
        pirate_capacity=ships["pirate_capacity"],
        cubes_per_colour=ships["cubes_per_colour"],
        attack_reward=raw["rewards"]["attack"],
        sink_reward=raw["rewards"]["sink"],
        development_costs=tuple(raw["purchases"]["development_costs"]),
        victory_costs=tuple(raw["purchases"]["victory_costs"]),
        round_cap=raw["limits"]["round_cap"],
    )


def _check_decks(data: GameData) -> None:
    """The deal needs enough cards: one development card of each cost per seat."""
    setup = data.setup
    for cost in setup.development_costs:
        if len(data.development_by_cost(cost)) < setup.max_players:
            raise ValueError(f"fewer than {setup.max_players} development cards of cost {cost}")
    if {card.cost for card in data.development.values()} != set(setup.development_costs):
        raise ValueError("development card costs differ from setup.toml")
    if len(setup.colours) < setup.max_players or len(setup.seat_bonus) < setup.max_players:
        raise ValueError("setup.toml needs a colour and a seat bonus for every seat")
    deal = setup.max_players * (setup.movement_hand + 1)
    if len(data.movement) < deal:
        raise ValueError("the movement deck is too small to deal")


@cache
def load_data(directory: Path = DATA_DIR) -> GameData:
    """Every data file of `directory`, parsed and checked (cached per directory)."""
    board = Board.from_toml(_read(directory, "board.toml"))
    data = GameData(
        board=board,
        movement=_movement(_read(directory, "movement.toml")),
        fortune=_fortune(_read(directory, "fortune.toml"), board),
        development=_development(_read(directory, "development.toml")),
        setup=_setup(_read(directory, "setup.toml")),
    )
    _check_decks(data)
    return data
