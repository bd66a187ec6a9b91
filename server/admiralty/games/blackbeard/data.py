"""Blackbeard's game data: the TOML files in `data/`, read with `tomllib` into frozen records
and checked once.

Everything a person holding the physical game might want to correct lives in those files:
the map (`map.toml`), the ports (`ports.toml`), the Pirate cards (`pirates.toml`), the ships
and counters (`ships.toml`), the Event deck (`events.toml`), the charts and rolls
(`charts.toml`), victory and retirement (`victory.toml`) and the setup figures
(`setup.toml`). Every row is labelled `known` (with its sources in the rules) or
`reconstructed`, in every game's vocabulary (`admiralty.games.provenance`). This module
reads every value from the files and refuses a file that would make an engine misbehave
(an unknown area in an edge, a duplicate id, a gap in the counter ids, a rating out of
range, a missing label, a deck too small to deal, a misspelt field),
with a `ValueError` naming the file and the row. It assumes no total: how many ports,
pirates or cards there are is what the files say (the tests hold the rules' numbers).

>>> data = load()
>>> data.ports[52].name, data.ports[52].nation, data.ports[52].value, data.ports[52].defense
('San Juan', 'spanish', 2, 7)
>>> data.neighbours()["CM"], data.neighbours(extra_edges=False)["CM"]
(('WC', 'SM'), ('WC',))
>>> data.events[1].title, data.events[1].copies, data.events[1].actions
('Buried Treasure', 1, 1)
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

from admiralty.games.provenance import Label, label_keys, read_label

DATA_DIR = Path(__file__).parent / "data"

RATINGS = ("initiative", "ability", "leadership", "cruelty", "cunning", "duel")
"""A Pirate card's six ratings, in the card's order (the rules' "Skill" is `ability`)."""

RATING_BOUNDS = {
    "initiative": (1, 6),  # Actions from a diamond card: at least one
    "ability": (0, 6),
    "leadership": (1, 6),  # 1d6 against it: 6 makes a mutiny impossible
    "cruelty": (0, 6),
    "cunning": (0, 6),
    "duel": (1, 6),  # dice in a duel: at least one
}
"""What the rules' die rolls make sense of; a printed card falls well inside."""

CLASSES = ("AND", "OR", "AP", "MPI")
PLAYS = ("HUP", "MPI")
DIAMOND = "diamond"
"""An Actions circle with a diamond: as many Actions as the pirate's Initiative."""
DASH = "dash"
"""An Actions circle with a dash: no Actions (Must Play Immediately cards)."""

TIMINGS = frozenset(
    {"own_turn", "when_drawn", "any_time", "T-ANN", "T-ENTER", "T-MID", "T-ROLL", "T-END"}
)
"""The timing words of the Event cards (see the header of events.toml)."""

EFFECTS = frozenset(
    {
        "buried_treasure",
        "careening",
        "debauchery_and_revelry",
        "doldrums",
        "fair_winds",
        "general_pardon",
        "harbour_pilot",
        "heavy_guns",
        "hurricane",
        "informer",
        "kc_surprise",
        "letter_of_marque",
        "merchant_fights_back",
        "mutiny_conspiracy",
        "new_governors",
        "pirate_converts",
        "piratical_ambition",
        "scurvy_outbreak",
        "skull_and_crossbones",
        "spanish_treasure_fleet",
        "station_ships",
        "storm_at_sea",
        "warship_sighting",
        "wear_and_tear",
    }
)
"""The Event effects an engine interprets, by `key`: a card with another key needs code."""

NP_MEASURES = frozenset(
    {"cargo_value", "hostage_value", "port_value", "kc_combat", "warship_combat", "duel_sum", "one"}
)
TRACKS = ("combat", "speed", "loyalty")
KC_POOLS = ("named", "ex_pirate")
GOVERNOR_SIDES = ("pro", "anti")
SCORERS = frozenset({"owner", "kc_controller", "ap_player", "each_other_player"})
RETIREMENT_RATES = ("standard", "pirate_port")
RETIREMENT_PRICES = ("safe_haven", "bribe", "bribe_cheap")
"""Price rows the rules read: D1 at a Safe Haven, D2 by bribe, and option 5's cheap D2."""
TIE_BREAKS = frozenset({"net_worth_vp", "retired", "highest_np", "shared"})

FIGURES: Mapping[str, tuple[str, ...]] = {
    "locate": ("target", "relocated_bonus"),
    "hostage": ("ransom_dice", "ransom_per_value", "torture_dice"),
    "port_attack": (
        "pirate_dice",
        "defense_dice",
        "marked_defense_dice",
        "success_combat_hits",
        "booty_per_pip",
    ),
    "sack": ("dice",),
    "booty_grab": ("attacker_bonus", "take_percent_per_point", "take_percent_max"),
    "fight": (
        "option_2_4_bonus",
        "debauchery_penalty",
        "kc_deploy_dice",
        "kc_moved_in_penalty",
        "warship_win_hits",
    ),
    "mutiny": ("conspiracy_dice", "resolution_dice"),
    "repair": ("dice", "divisor", "safe_haven_bonus"),
    "safe_haven": ("price_per_pip",),
    "cash": ("pirate_port_percent", "pro_pirate_percent", "safe_haven_percent", "neutral_percent"),
}
"""The charts' tables of plain numbers and the figures each must give."""

_MISSING: Any = object()


# ---------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Region:
    id: str
    name: str
    label: Label


@dataclass(frozen=True, slots=True)
class Area:
    """A sea area; `number` (1-10) breaks ties where the rules let the engine choose."""

    id: str
    number: int
    name: str
    region: str
    cargo_column: str
    label: Label


@dataclass(frozen=True, slots=True)
class TransitBox:
    """A transit box (rule 7.11): one Move in, one out; never attacked; not adjacent to any
    area for a KC's Reaction. `number` ranks it after the areas."""

    id: str
    number: int
    name: str
    label: Label


@dataclass(frozen=True, slots=True)
class Edge:
    """One step of a Move between two locations. `extra`: added by the reconstruction
    (design option 11); `removable`: the option's alternative map leaves it out."""

    between: tuple[str, str]
    extra: bool
    removable: bool
    label: Label


@dataclass(frozen=True, slots=True)
class Site:
    """A place on the map that is not a port (the Isle of Pines)."""

    id: str
    name: str
    area: str
    label: Label


@dataclass(frozen=True, slots=True)
class Nation:
    id: str
    name: str
    ransom: bool
    repairs: bool
    letters_of_marque: bool
    label: Label


@dataclass(frozen=True, slots=True)
class Port:
    """A port by its Port Locator `code` (a d66 result). Pirate Ports have no nation, Value,
    Defense or attitude (None)."""

    code: int
    name: str
    areas: tuple[str, ...]
    nation: str | None
    value: int | None
    defense: int | None
    attitude: str | None
    naval_base: bool
    pirate_port: bool
    label: Label

    @property
    def area(self) -> str:
        """The sea area a d66 placement uses (Bermuda's first, North Atlantic)."""
        return self.areas[0]


@dataclass(frozen=True, slots=True)
class Pirate:
    id: str
    name: str
    nickname: str
    ship: str
    initiative: int
    ability: int
    leadership: int
    cruelty: int
    cunning: int
    duel: int
    label: Label

    @property
    def ratings(self) -> dict[str, int]:
        return dict(
            zip(
                RATINGS,
                (
                    self.initiative,
                    self.ability,
                    self.leadership,
                    self.cruelty,
                    self.cunning,
                    self.duel,
                ),
                strict=True,
            )
        )


@dataclass(frozen=True, slots=True)
class ShipType:
    """A pirate ship type; `start`: may be chosen when a pirate is deployed."""

    id: str
    name: str
    frame: str
    combat: int
    speed: int
    holds: int
    start: bool
    label: Label


@dataclass(frozen=True, slots=True)
class Track:
    """A Pirate Display track: values `low`..`high`, `sunk` below them (Combat and Speed),
    `start` for a new pirate (Crew Loyalty)."""

    id: str
    low: int
    high: int
    sunk: int | None
    start: int | None
    label: Label


@dataclass(frozen=True, slots=True)
class MerchantType:
    id: str
    name: str
    frame: str
    cargo_value: int
    convertible: bool
    ids: tuple[str, ...]
    label: Label


@dataclass(frozen=True, slots=True)
class WarshipClass:
    id: str
    name: str
    guns: str
    speed: int
    combat: int
    label: Label


@dataclass(frozen=True, slots=True)
class Warship:
    id: str
    cls: WarshipClass
    name: str
    label: Label

    @property
    def speed(self) -> int:
        return self.cls.speed

    @property
    def combat(self) -> int:
        return self.cls.combat


@dataclass(frozen=True, slots=True)
class KC:
    """A King's Commissioner; `pool` "named" (drawn blind) or "ex_pirate" (card 16 only)."""

    id: str
    name: str
    speed: int
    combat: int
    pool: str
    label: Label


@dataclass(frozen=True, slots=True)
class HostageKind:
    id: str
    name: str
    information: int
    value: int
    ids: tuple[str, ...]
    label: Label


@dataclass(frozen=True, slots=True)
class Governor:
    id: str
    side: str
    name: str
    label: Label


@dataclass(frozen=True, slots=True)
class Marker:
    id: str
    name: str
    rules: str
    limit: int | None
    label: Label


@dataclass(frozen=True, slots=True)
class EventCard:
    """One Event title with its copies. `cls` is its class (AND, OR, AP, MPI), `play` its
    information line (HUP or MPI), `actions` a number, DIAMOND or DASH."""

    number: int
    title: str
    key: str
    copies: int
    cls: str
    play: str
    actions: int | str
    timing: tuple[str, ...]
    when: str
    effect: str
    params: Mapping[str, Any]
    label: Label

    @property
    def anti_pirate(self) -> bool:
        return self.cls == "AP"


@dataclass(frozen=True, slots=True)
class Deck:
    """The Event deck one game uses: each title with its copies there. Every total is
    counted from the rows."""

    cards: tuple[EventCard, ...]

    @property
    def total(self) -> int:
        return sum(card.copies for card in self.cards)

    def by_class(self) -> Counter[str]:
        return self._count(lambda card: card.cls)

    def by_play(self) -> Counter[str]:
        return self._count(lambda card: card.play)

    def by_actions(self) -> Counter[int | str]:
        """Cards per Actions value (a number, DIAMOND, DASH)."""
        return self._count(lambda card: card.actions)

    def _count(self, key: Any) -> Counter[Any]:
        counts: Counter[Any] = Counter()
        for card in self.cards:
            counts[key(card)] += card.copies
        return counts


@dataclass(frozen=True, slots=True)
class CargoRow:
    roll: int
    booty: Mapping[str, int]
    """Doubloons by Cargo Table column."""
    loyalty: int
    label: Label


@dataclass(frozen=True, slots=True)
class NotorietyRow:
    """NP = `factor` x the `measure` (one of NP_MEASURES)."""

    key: str
    rule: str
    measure: str
    factor: int
    label: Label


@dataclass(frozen=True, slots=True)
class LoyaltyRow:
    """Crew Loyalty: set to `set_to` first (when given), then `change` added."""

    key: str
    rule: str
    change: int
    set_to: int | None
    label: Label


@dataclass(frozen=True, slots=True)
class StormRow:
    low: int
    high: int
    speed_hits: int
    sinks: bool
    label: Label


@dataclass(frozen=True, slots=True)
class Figures:
    """A table of plain numbers (`charts.toml` [locate], [port_attack], ...)."""

    name: str
    values: Mapping[str, int]
    label: Label

    def __getitem__(self, key: str) -> int:
        return self.values[key]


@dataclass(frozen=True, slots=True)
class Charts:
    cargo_columns: tuple[str, ...]
    cargo: tuple[CargoRow, ...]
    notoriety: Mapping[str, NotorietyRow]
    loyalty: Mapping[str, LoyaltyRow]
    storm_transit_modifier: int
    storm: tuple[StormRow, ...]
    figures: Mapping[str, Figures]
    labels: Mapping[str, Label]

    def cargo_booty(self, roll: int, column: str) -> tuple[int, int]:
        """Doubloons and the Crew Loyalty change for an adjusted Cargo roll (rule 8.32)."""
        first = self.cargo[0].roll
        if not first <= roll < first + len(self.cargo):
            raise ValueError(f"no Cargo Table row for an adjusted roll of {roll}")
        row = self.cargo[roll - first]
        return row.booty[column], row.loyalty

    def storm_effect(self, roll: int) -> StormRow:
        """The Storm Effects Table row of an adjusted roll."""
        (row,) = (row for row in self.storm if row.low <= roll <= row.high)
        return row


@dataclass(frozen=True, slots=True)
class ScoringCase:
    """A case of rule 18.12: who scores, and how many VP (see victory.toml)."""

    case: str
    key: str
    who: str
    np_divisor: int
    net_worth: bool
    kc_combat_divisor: int
    per_hit: int
    sunk_np_divisor: int
    fixed: int
    label: Label


@dataclass(frozen=True, slots=True)
class RetirementCase:
    case: str
    key: str
    where: str
    rate: str
    label: Label


@dataclass(frozen=True, slots=True)
class RetirementPrice:
    """1d6: at most `refuse_max` the Governor refuses; else the roll x `price_per_pip`."""

    key: str
    refuse_max: int
    price_per_pip: int
    label: Label


@dataclass(frozen=True, slots=True)
class Victory:
    vp_start: int
    vp_flip_at: int
    doubloons_per_vp: int
    pirate_port_doubloons_per_vp: int
    scoring: Mapping[str, ScoringCase]
    retirement: Mapping[str, RetirementCase]
    prices: Mapping[str, RetirementPrice]
    tie_breaks: tuple[str, ...]
    labels: Mapping[str, Label]


@dataclass(frozen=True, slots=True)
class PlayerCount:
    """The limits of `players`..`up_to` players."""

    players: int
    up_to: int
    map_limit: int
    dealt: int
    hand_limit: int
    label: Label


@dataclass(frozen=True, slots=True)
class SolitaireLevel:
    key: str
    ap_budget: int
    kc_limit: int
    threat_row: int
    vp_target: int
    option_2_4: bool
    label: Label


@dataclass(frozen=True, slots=True)
class Setup:
    player_counts: tuple[PlayerCount, ...]
    event_hand: int
    merchants_at_setup: int
    merchant_phase_below: int
    merchant_phase_up_to: int
    threat_row_start: int
    crown_draws: int
    solitaire_levels: Mapping[str, SolitaireLevel]
    labels: Mapping[str, Label]

    @property
    def max_players(self) -> int:
        return max(row.up_to for row in self.player_counts)

    def limits(self, players: int) -> PlayerCount:
        for row in self.player_counts:
            if row.players <= players <= row.up_to:
                return row
        raise ValueError(f"no setup row for {players} players")


@dataclass(frozen=True, slots=True)
class GameData:
    regions: Mapping[str, Region]
    areas: Mapping[str, Area]
    """By id, in number order."""
    transits: Mapping[str, TransitBox]
    edges: tuple[Edge, ...]
    sites: Mapping[str, Site]
    nations: Mapping[str, Nation]
    ports: Mapping[int, Port]
    """By code, ascending: the "code order" of the next-available-port rule."""
    pirates: Mapping[str, Pirate]
    ship_types: Mapping[str, ShipType]
    tracks: Mapping[str, Track]
    merchant_types: Mapping[str, MerchantType]
    merchants: Mapping[str, MerchantType]
    """Each merchant counter's type, by counter id."""
    warship_classes: Mapping[str, WarshipClass]
    warships: Mapping[str, Warship]
    kcs: Mapping[str, KC]
    hostage_kinds: Mapping[str, HostageKind]
    hostages: Mapping[str, HostageKind]
    """Each hostage counter's kind, by counter id."""
    governors: Mapping[str, Governor]
    markers: Mapping[str, Marker]
    events: Mapping[int, EventCard]
    """By card number."""
    charts: Charts
    victory: Victory
    setup: Setup

    def locations(self) -> list[str]:
        """Every sea area and transit box, in tie-break number order."""
        return [*self.areas, *self.transits]

    def neighbours(self, extra_edges: bool = True) -> dict[str, tuple[str, ...]]:
        """Each location's neighbours in number order; without `extra_edges`, the map of
        design option 11's alternative (the removable edges left out)."""
        rank = {loc: i for i, loc in enumerate(self.locations())}
        near: dict[str, list[str]] = {loc: [] for loc in rank}
        for edge in self.edges:
            if extra_edges or not edge.removable:
                first, second = edge.between
                near[first].append(second)
                near[second].append(first)
        return {loc: tuple(sorted(others, key=rank.__getitem__)) for loc, others in near.items()}

    def ports_of(self, area: str) -> tuple[Port, ...]:
        """The ports that adjoin `area` (Bermuda adjoins two)."""
        return tuple(port for port in self.ports.values() if area in port.areas)

    def card(self, key: str) -> EventCard:
        """The Event title with effect `key`."""
        for card in self.events.values():
            if card.key == key:
                return card
        raise KeyError(key)

    def deck(
        self, copies: Mapping[str, int] | None = None, replaced: Iterable[EventCard] = ()
    ) -> Deck:
        """The deck with the copies of some titles changed (by key) and some titles
        replaced by variants of the same key (design options 2, 16, 22)."""
        cards = {card.key: card for card in self.events.values()}
        for card in replaced:
            if card.key not in cards:
                raise ValueError(f"no Event title with key {card.key!r} to replace")
            cards[card.key] = card
        for key, count in (copies or {}).items():
            if key not in cards or count < 0:
                raise ValueError(f"cannot give Event title {key!r} {count} copies")
            cards[key] = dataclasses.replace(cards[key], copies=count)
        return Deck(tuple(cards.values()))


# ---------------------------------------------------------------------------- reading


class _Row:
    """One TOML table of a data file, read field by field. Every problem is a ValueError
    naming the file and the row; a field nobody reads is refused as unknown (a misspelling
    must not silently fall back to a default)."""

    def __init__(self, file: str, where: str, raw: Any) -> None:
        self.file, self.where = file, where
        if not isinstance(raw, dict):
            self.fail("must be a table")
        self.raw: dict[str, Any] = raw
        self.read: set[str] = set(label_keys(raw))

    def fail(self, problem: str) -> NoReturn:
        raise ValueError(f"{self.file}: {self.where}: {problem}")

    def value(self, key: str, default: Any = _MISSING) -> Any:
        """Field `key` as written (`default` when absent; without one it is required)."""
        self.read.add(key)
        if key in self.raw:
            return self.raw[key]
        if default is _MISSING:
            self.fail(f"missing field {key!r}")
        return default

    def text(self, key: str, choices: Iterable[str] | None = None, default: Any = _MISSING) -> Any:
        if key not in self.raw and default is not _MISSING:
            return self.value(key, default)
        value = self.value(key)
        if not isinstance(value, str) or not value:
            self.fail(f"{key} must be a non-empty string, got {value!r}")
        if choices is not None and value not in (allowed := tuple(choices)):
            self.fail(f"{key} {value!r} is not one of {', '.join(map(str, allowed))}")
        return value

    def number(
        self, key: str, low: int | None = None, high: int | None = None, default: Any = _MISSING
    ) -> Any:
        if key not in self.raw and default is not _MISSING:
            return self.value(key, default)
        value = self.value(key)
        if type(value) is not int:  # a bool is no number
            self.fail(f"{key} must be a whole number, got {value!r}")
        if (low is not None and value < low) or (high is not None and value > high):
            self.fail(f"{key} {value} is out of range {low}..{high}")
        return value

    def flag(self, key: str, default: Any = _MISSING) -> bool:
        value = self.value(key, default)
        if not isinstance(value, bool):
            self.fail(f"{key} must be true or false, got {value!r}")
        return value

    def texts(self, key: str, choices: Iterable[str] | None = None) -> tuple[str, ...]:
        value = self.value(key)
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(item, str) and item for item in value)
        ):
            self.fail(f"{key} must be a non-empty list of strings, got {value!r}")
        if len(set(value)) < len(value):
            self.fail(f"{key} lists an item twice: {value!r}")
        allowed = None if choices is None else set(choices)
        for item in value:
            if allowed is not None and item not in allowed:
                self.fail(f"{key}: unknown {item!r}")
        return tuple(value)

    def label(self) -> Label:
        """The row's label, checked as every game's data labels are."""
        return read_label(self.raw, f"{self.file}: {self.where}")

    def done(self) -> None:
        """Refuse an unlabelled row and fields nobody read."""
        self.label()
        unknown = sorted(set(self.raw) - self.read)
        if unknown:
            self.fail(f"unknown field(s) {', '.join(unknown)}")


class _File:
    """One data file: its tables, read as rows; unknown tables are refused."""

    def __init__(self, directory: Path, name: str) -> None:
        self.name = name
        try:
            with (directory / name).open("rb") as handle:
                self.raw = tomllib.load(handle)
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"{name}: not valid TOML: {error}") from None
        self.read: set[str] = set()

    def fail(self, problem: str) -> NoReturn:
        raise ValueError(f"{self.name}: {problem}")

    def rows(
        self, table: str, key: str | None = None, parent: _Row | None = None
    ) -> Iterator[_Row]:
        """The rows of array `table` (of section `parent`, else of the file), each named by
        its position and `key` field; duplicate keys are refused."""
        if parent is None:
            self.read.add(table)
        else:
            parent.read.add(table)
            table = f"{parent.where.strip('[]')}.{table}"
        rows = (self.raw if parent is None else parent.raw).get(table.rpartition(".")[2])
        if not isinstance(rows, list) or not rows:
            self.fail(f"needs at least one [[{table}]] row")
        seen: set[Any] = set()
        for index, raw in enumerate(rows, 1):
            ident = raw.get(key) if key and isinstance(raw, dict) else None
            where = f"[[{table}]] row {index}" + (f" ({key} = {ident!r})" if key else "")
            row = _Row(self.name, where, raw)
            if key:
                value = row.raw.get(key)
                if value in seen:
                    row.fail(f"duplicate {key} {value!r}")
                seen.add(value)
            yield row

    def section(self, name: str) -> _Row:
        self.read.add(name)
        if name not in self.raw:
            self.fail(f"missing table [{name}]")
        return _Row(self.name, f"[{name}]", self.raw[name])

    def done(self) -> None:
        unknown = sorted(set(self.raw) - self.read)
        if unknown:
            self.fail(f"unknown table(s) {', '.join(unknown)}")


def _ids(file: _File, table: str, prefix: str, rows: Iterable[tuple[_Row, Iterable[str]]]) -> None:
    """Counter ids `prefix`01.. must be unique and run from 01 without a gap: their number
    is the number of counters."""
    seen: dict[str, _Row] = {}
    for row, ids in rows:
        for ident in ids:
            if not re.fullmatch(rf"{prefix}\d\d", ident):
                row.fail(f"counter id {ident!r} is not {prefix} and two digits")
            if ident in seen:
                row.fail(f"duplicate counter id {ident!r}")
            seen[ident] = row
    expected = [f"{prefix}{n:02}" for n in range(1, len(seen) + 1)]
    missing = sorted(set(expected) - set(seen))
    if missing:
        file.fail(
            f"[[{table}]] counter ids must run {prefix}01..{prefix}{len(seen):02} "
            f"without gaps; missing {', '.join(missing)}"
        )


# ---------------------------------------------------------------------------- the files


def _map(
    file: _File,
) -> tuple[
    dict[str, Region],
    dict[str, Area],
    dict[str, TransitBox],
    tuple[Edge, ...],
    dict[str, Site],
    dict[str, _Row],
]:
    regions = {}
    for row in file.rows("region", "id"):
        regions[row.text("id")] = Region(row.text("id"), row.text("name"), row.label())
        row.done()
    areas: dict[str, Area] = {}
    rows: dict[str, _Row] = {}
    numbers: dict[int, str] = {}
    for row in file.rows("area", "id"):
        area = Area(
            row.text("id"),
            row.number("number", 1),
            row.text("name"),
            row.text("region", regions),
            row.text("cargo_column"),
            row.label(),
        )
        if area.number in numbers:
            row.fail(f"number {area.number} is also {numbers[area.number]}'s")
        numbers[area.number] = area.id
        areas[area.id], rows[area.id] = area, row
        row.done()
    transits: dict[str, TransitBox] = {}
    for row in file.rows("transit", "id"):
        box = TransitBox(row.text("id"), row.number("number", 1), row.text("name"), row.label())
        if box.id in areas:
            row.fail(f"id {box.id!r} is also a sea area's")
        if box.number in numbers:
            row.fail(f"number {box.number} is also {numbers[box.number]}'s")
        numbers[box.number] = box.id
        transits[box.id] = box
        row.done()
    areas = dict(sorted(areas.items(), key=lambda item: item[1].number))
    transits = dict(sorted(transits.items(), key=lambda item: item[1].number))
    locations = {**areas, **transits}
    edges: list[Edge] = []
    pairs: set[frozenset[str]] = set()
    for row in file.rows("edge"):
        between = row.texts("between", locations)
        if len(between) != 2:
            row.fail(f"between must name two locations, got {list(between)}")
        first, second = between
        pair = frozenset(between)
        if pair in pairs:
            row.fail(f"duplicate edge {first}-{second}")
        pairs.add(pair)
        extra, removable = row.flag("extra", False), row.flag("removable", False)
        if removable and not extra:
            row.fail("only an extra edge (design option 11) may be removable")
        edges.append(Edge((first, second), extra, removable, row.label()))
        row.done()
    sites = {}
    for row in file.rows("site", "id"):
        sites[row.text("id")] = Site(
            row.text("id"), row.text("name"), row.text("area", areas), row.label()
        )
        row.done()
    file.done()
    return regions, areas, transits, tuple(edges), sites, rows


def _connected(file: _File, locations: list[str], edges: Iterable[Edge], what: str) -> None:
    near: dict[str, set[str]] = {loc: set() for loc in locations}
    for edge in edges:
        first, second = edge.between
        near[first].add(second)
        near[second].add(first)
    reached, todo = {locations[0]}, [locations[0]]
    while todo:
        for other in near[todo.pop()] - reached:
            reached.add(other)
            todo.append(other)
    unreached = [loc for loc in locations if loc not in reached]
    if unreached:
        file.fail(f"{what}: {', '.join(unreached)} cannot be reached from {locations[0]}")


def _ports(file: _File, areas: Mapping[str, Area]) -> tuple[dict[str, Nation], dict[int, Port]]:
    nations = {}
    for row in file.rows("nation", "id"):
        nations[row.text("id")] = Nation(
            row.text("id"),
            row.text("name"),
            row.flag("ransom"),
            row.flag("repairs"),
            row.flag("letters_of_marque"),
            row.label(),
        )
        row.done()
    ports = {}
    for row in file.rows("port", "code"):
        code = row.number("code")
        if not (code // 10 in range(1, 7) and code % 10 in range(1, 7)):
            row.fail(f"code {code} is not a d66 result (two digits, each 1-6)")
        pirate_port = row.flag("pirate_port")
        national = ("nation", "value", "defense", "attitude")
        if pirate_port:
            present = [name for name in national if name in row.raw]
            if present or row.flag("naval_base", False):
                row.fail(
                    f"a Pirate Port has no nation, Value, Defense, attitude or naval "
                    f"base; got {present or ['naval_base']}"
                )
            port = Port(
                code,
                row.text("name"),
                row.texts("areas", areas),
                None,
                None,
                None,
                None,
                False,
                True,
                row.label(),
            )
        else:
            port = Port(
                code,
                row.text("name"),
                row.texts("areas", areas),
                row.text("nation", nations),
                row.number("value", 1),
                row.number("defense", 1),
                row.text("attitude", ("neutral", "pro_pirate", "anti_pirate")),
                row.flag("naval_base"),
                False,
                row.label(),
            )
        ports[code] = port
        row.done()
    file.done()
    return nations, dict(sorted(ports.items()))


def _pirates(file: _File) -> dict[str, Pirate]:
    pirates = {}
    for row in file.rows("pirate", "id"):
        ident = row.text("id")
        if not re.fullmatch(r"[A-Z]{2}", ident):
            row.fail(f"id {ident!r} is not two capital letters (the Pirate ID)")
        rating = {key: row.number(key, *RATING_BOUNDS[key]) for key in RATINGS}
        pirates[ident] = Pirate(
            ident,
            row.text("name"),
            row.text("nickname", default=""),
            row.text("ship"),
            initiative=rating["initiative"],
            ability=rating["ability"],
            leadership=rating["leadership"],
            cruelty=rating["cruelty"],
            cunning=rating["cunning"],
            duel=rating["duel"],
            label=row.label(),
        )
        row.done()
    file.done()
    return pirates


@dataclass(frozen=True, slots=True)
class _Ships:
    ship_types: dict[str, ShipType]
    tracks: dict[str, Track]
    merchant_types: dict[str, MerchantType]
    warship_classes: dict[str, WarshipClass]
    warships: dict[str, Warship]
    kcs: dict[str, KC]
    hostage_kinds: dict[str, HostageKind]
    governors: dict[str, Governor]
    markers: dict[str, Marker]


def _ships(file: _File) -> _Ships:
    ship_types = {}
    ship_rows = {}
    for row in file.rows("ship_type", "id"):
        ship = ShipType(
            row.text("id"),
            row.text("name"),
            row.text("frame"),
            row.number("combat", 1),
            row.number("speed"),
            row.number("holds", 1),
            row.flag("start"),
            row.label(),
        )
        ship_types[ship.id], ship_rows[ship.id] = ship, row
        row.done()
    if not any(ship.start for ship in ship_types.values()):
        file.fail("[[ship_type]]: no type may be chosen at deployment (start = true)")
    tracks = {}
    for row in file.rows("track", "id"):
        track = Track(
            row.text("id", TRACKS),
            row.number("low"),
            row.number("high"),
            row.number("sunk", default=None),
            row.number("start", default=None),
            row.label(),
        )
        if track.low > track.high:
            row.fail(f"low {track.low} is above high {track.high}")
        if track.sunk is not None and track.sunk >= track.low:
            row.fail(f"sunk {track.sunk} must lie below low {track.low}")
        if track.start is not None and not track.low <= track.start <= track.high:
            row.fail(f"start {track.start} is outside {track.low}..{track.high}")
        tracks[track.id] = track
        row.done()
    missing = [name for name in TRACKS if name not in tracks]
    if missing or tracks["combat"].sunk is None or tracks["speed"].sunk is None:
        file.fail(f"[[track]] needs combat and speed (with sunk) and loyalty; missing {missing}")
    if tracks["loyalty"].start is None:
        file.fail("[[track]] loyalty needs a start")
    for ship in ship_types.values():
        for name, value in (("combat", ship.combat), ("speed", ship.speed)):
            track = tracks[name]
            if not track.low <= value <= track.high:
                ship_rows[ship.id].fail(
                    f"{name} {value} is off the {name} track ({track.low}..{track.high})"
                )
    merchant_types = {}
    merchant_rows = []
    for row in file.rows("merchant_type", "id"):
        merchant = MerchantType(
            row.text("id"),
            row.text("name"),
            row.text("frame"),
            row.number("cargo_value", 0),
            row.flag("convertible"),
            row.texts("ids"),
            row.label(),
        )
        if merchant.convertible and merchant.id not in ship_types:
            row.fail(f"a convertible merchant needs a [[ship_type]] with id {merchant.id!r}")
        merchant_types[merchant.id] = merchant
        merchant_rows.append((row, merchant.ids))
        row.done()
    _ids(file, "merchant_type", "M", merchant_rows)
    classes = {}
    for row in file.rows("warship_class", "id"):
        classes[row.text("id")] = WarshipClass(
            row.text("id"),
            row.text("name"),
            row.text("guns"),
            row.number("speed", 0),
            row.number("combat", 1),
            row.label(),
        )
        row.done()
    warships = {}
    warship_rows = []
    for row in file.rows("warship", "id"):
        warship = Warship(
            row.text("id"), classes[row.text("class", classes)], row.text("name"), row.label()
        )
        warships[warship.id] = warship
        warship_rows.append((row, (warship.id,)))
        row.done()
    _ids(file, "warship", "W", warship_rows)
    kcs = {}
    for row in file.rows("kc", "id"):
        kc = KC(
            row.text("id"),
            row.text("name"),
            row.number("speed", 0),
            row.number("combat", 1),
            row.text("pool", KC_POOLS),
            row.label(),
        )
        if not re.fullmatch(r"K(\d+|X)", kc.id):
            row.fail(f"id {kc.id!r} is not K and a number, or KX")
        kcs[kc.id] = kc
        row.done()
    kinds = {}
    hostage_rows = []
    for row in file.rows("hostage", "id"):
        kind = HostageKind(
            row.text("id"),
            row.text("name"),
            row.number("information", 0),
            row.number("value", 1),
            row.texts("ids"),
            row.label(),
        )
        kinds[kind.id] = kind
        hostage_rows.append((row, kind.ids))
        row.done()
    _ids(file, "hostage", "H", hostage_rows)
    governors = {}
    governor_rows = []
    for row in file.rows("governor", "id"):
        governor = Governor(
            row.text("id"), row.text("side", GOVERNOR_SIDES), row.text("name"), row.label()
        )
        governors[governor.id] = governor
        governor_rows.append((row, (governor.id,)))
        row.done()
    _ids(file, "governor", "G", governor_rows)
    markers = {}
    for row in file.rows("marker", "id"):
        markers[row.text("id")] = Marker(
            row.text("id"),
            row.text("name"),
            row.text("rules"),
            row.number("limit", 1, default=None),
            row.label(),
        )
        row.done()
    file.done()
    return _Ships(
        ship_types, tracks, merchant_types, classes, warships, kcs, kinds, governors, markers
    )


_CARD_FIELDS = (
    "number",
    "title",
    "key",
    "copies",
    "class",
    "play",
    "actions",
    "timing",
    "when",
    "effect",
    "params",
)


def _events(file: _File) -> tuple[dict[int, EventCard], dict[int, _Row]]:
    cards: dict[int, EventCard] = {}
    rows: dict[int, _Row] = {}
    keys: dict[str, int] = {}
    titles: dict[str, int] = {}
    for row in file.rows("card", "number"):
        number, key, title = row.number("number", 1), row.text("key"), row.text("title")
        if key not in EFFECTS:
            row.fail(
                f"unknown effect key {key!r} (an engine interprets only "
                f"{', '.join(sorted(EFFECTS))})"
            )
        if key in keys:
            row.fail(f"key {key!r} is also card {keys[key]}'s")
        if title.casefold() in titles:
            row.fail(f"title {title!r} is also card {titles[title.casefold()]}'s")
        keys[key], titles[title.casefold()] = number, number
        cls, play = row.text("class", CLASSES), row.text("play", PLAYS)
        if (cls == "MPI") != (play == "MPI"):
            row.fail(
                f"a card is Must Play Immediately exactly when its class is MPI "
                f"(class {cls}, play {play})"
            )
        actions = row.value("actions")
        if cls == "MPI" and actions != DASH:
            row.fail(f"a Must Play Immediately card has a dash for Actions, got {actions!r}")
        if cls == "AND" and actions != 1:
            row.fail(f"an Actions AND Event card gives exactly 1 Action, got {actions!r}")
        if (
            cls in ("OR", "AP")
            and actions != DIAMOND
            and not (type(actions) is int and actions >= 1)
        ):
            row.fail(f"actions must be a number of at least 1 or {DIAMOND!r}, got {actions!r}")
        params = row.value("params", {})
        if not isinstance(params, dict):
            row.fail("params must be a table")
        card = EventCard(
            number,
            title,
            key,
            row.number("copies", 1),
            cls,
            play,
            actions,
            row.texts("timing", TIMINGS),
            row.text("when"),
            row.text("effect"),
            params,
            row.label(),
        )
        cards[number], rows[number] = card, row
        row.done()
    numbers = sorted(cards)
    if numbers != list(range(1, len(numbers) + 1)):
        file.fail(f"card numbers must run 1..{len(numbers)} without gaps, got {numbers}")
    file.done()
    return {number: cards[number] for number in numbers}, rows


def _check_params(cards: Mapping[int, EventCard], rows: Mapping[int, _Row], data: GameData) -> None:
    """The places a card's params name must exist."""
    refs: Mapping[str, Mapping[str, Any]] = {
        "area": data.areas,
        "escort_area": data.areas,
        "areas": data.areas,
        "nation": data.nations,
        "kc": data.kcs,
        "site": data.sites,
    }
    for number, card in cards.items():
        for name, value in card.params.items():
            if name in refs:
                for item in value if isinstance(value, list) else [value]:
                    if item not in refs[name]:
                        rows[number].fail(f"params.{name}: unknown {item!r}")
            elif type(value) is not int:
                rows[number].fail(f"params.{name} must be a whole number, got {value!r}")


def _charts(file: _File) -> Charts:
    labels = {}
    cargo_section = file.section("cargo")
    columns = cargo_section.texts("columns")
    labels["cargo"] = cargo_section.label()
    cargo = []
    for row in file.rows("row", "roll", parent=cargo_section):
        cargo.append(
            CargoRow(
                row.number("roll"),
                {column: row.number(column, 0) for column in columns},
                row.number("loyalty", -1, 1),
                row.label(),
            )
        )
        row.done()
    cargo_section.done()
    rolls = [row.roll for row in cargo]
    if rolls != list(range(rolls[0], rolls[0] + len(rolls))):
        file.fail(f"[[cargo.row]] rolls must run up by one without gaps, got {rolls}")
    notoriety = {}
    for row in file.rows("notoriety", "key"):
        notoriety[row.text("key")] = NotorietyRow(
            row.text("key"),
            row.text("rule"),
            row.text("measure", sorted(NP_MEASURES)),
            row.number("factor", 1),
            row.label(),
        )
        row.done()
    loyalty = {}
    for row in file.rows("loyalty", "key"):
        loyalty[row.text("key")] = LoyaltyRow(
            row.text("key"),
            row.text("rule"),
            row.number("change"),
            row.number("set", 0, default=None),
            row.label(),
        )
        row.done()
    storm_section = file.section("storm")
    modifier = storm_section.number("transit_modifier", 0)
    labels["storm"] = storm_section.label()
    storm: list[StormRow] = []
    for row in file.rows("row", parent=storm_section):
        sinks = row.flag("sinks", False)
        storm_row = StormRow(
            row.number("low", 1),
            row.number("high", 1),
            row.number("speed_hits", 1, default=0) if not sinks else 0,
            sinks,
            row.label(),
        )
        expected = storm[-1].high + 1 if storm else 1
        if storm_row.low != expected or storm_row.high < storm_row.low:
            row.fail(
                f"rows must cover the rolls in order: expected low {expected}, "
                f"got {storm_row.low}..{storm_row.high}"
            )
        if not sinks and storm_row.speed_hits == 0:
            row.fail("a row either gives speed_hits or sinks the ship")
        storm.append(storm_row)
        row.done()
    storm_section.done()
    if storm[-1].high < 6 + modifier:
        file.fail(
            f"[[storm.row]] must cover rolls up to {6 + modifier} (1d6 + the transit "
            f"modifier), got up to {storm[-1].high}"
        )
    figures = {}
    for name, keys in FIGURES.items():
        section = file.section(name)
        figures[name] = Figures(name, {key: section.number(key) for key in keys}, section.label())
        section.done()
    file.done()
    return Charts(
        columns, tuple(cargo), notoriety, loyalty, modifier, tuple(storm), figures, labels
    )


def _victory(file: _File) -> Victory:
    labels = {}
    track = file.section("vp_track")
    start, flip_at = track.number("start", 0), track.number("flip_at", 1)
    labels["vp_track"] = track.label()
    track.done()
    worth = file.section("net_worth")
    rate, pirate_rate = (
        worth.number("doubloons_per_vp", 1),
        worth.number("pirate_port_doubloons_per_vp", 1),
    )
    labels["net_worth"] = worth.label()
    worth.done()
    scoring = {}
    for row in file.rows("scoring", "case"):
        scoring[row.text("case")] = ScoringCase(
            row.text("case"),
            row.text("key"),
            row.text("who", sorted(SCORERS)),
            row.number("np_divisor", 0),
            row.flag("net_worth", False),
            row.number("kc_combat_divisor", 0, default=0),
            row.number("per_hit", 0, default=0),
            row.number("sunk_np_divisor", 0, default=0),
            row.number("fixed", 0, default=0),
            row.label(),
        )
        row.done()
    retirement = {}
    for row in file.rows("retirement", "case"):
        retirement[row.text("case")] = RetirementCase(
            row.text("case"),
            row.text("key"),
            row.text("where"),
            row.text("rate", RETIREMENT_RATES),
            row.label(),
        )
        row.done()
    prices = {}
    for row in file.rows("retirement_price", "key"):
        prices[row.text("key")] = RetirementPrice(
            row.text("key", RETIREMENT_PRICES),
            row.number("refuse_max", 0, 5),
            row.number("price_per_pip", 0),
            row.label(),
        )
        row.done()
    missing = [key for key in RETIREMENT_PRICES if key not in prices]
    if missing:
        file.fail(f"[[retirement_price]] needs rows {', '.join(missing)}")
    breaks: list[str] = []
    for row in file.rows("tie_break", "order"):
        if row.number("order", 1) != len(breaks) + 1:
            row.fail(f"tie-breaks must be in order 1, 2, ...; expected {len(breaks) + 1}")
        breaks.append(row.text("key", sorted(TIE_BREAKS)))
        row.label()
        row.done()
    file.done()
    return Victory(
        start, flip_at, rate, pirate_rate, scoring, retirement, prices, tuple(breaks), labels
    )


def _setup(file: _File) -> Setup:
    counts: list[PlayerCount] = []
    for row in file.rows("players", "players"):
        count = PlayerCount(
            row.number("players", 1),
            row.number("up_to", 1),
            row.number("map_limit", 1),
            row.number("dealt", 1),
            row.number("hand_limit", 1),
            row.label(),
        )
        if count.up_to < count.players:
            row.fail(f"up_to {count.up_to} is below players {count.players}")
        if counts and count.players <= counts[-1].up_to:
            row.fail("rows must list player counts in order without overlaps")
        if count.dealt > count.hand_limit:
            row.fail(f"dealt {count.dealt} is above the hand limit {count.hand_limit}")
        counts.append(count)
        row.done()
    labels = {}
    hands = file.section("hands")
    event_hand = hands.number("event_cards", 1)
    labels["hands"] = hands.label()
    hands.done()
    merchants = file.section("merchants")
    at_setup, below, up_to = (
        merchants.number(key, 0) for key in ("at_setup", "phase_below", "phase_up_to")
    )
    if up_to < below:
        merchants.fail(f"phase_up_to {up_to} is below phase_below {below}")
    labels["merchants"] = merchants.label()
    merchants.done()
    solitaire = file.section("solitaire")
    row_start, draws = solitaire.number("threat_row_start", 0), solitaire.number("crown_draws", 0)
    labels["solitaire"] = solitaire.label()
    solitaire.done()
    levels = {}
    for row in file.rows("solitaire_level", "key"):
        level = SolitaireLevel(
            row.text("key"),
            row.number("ap_budget", 0),
            row.number("kc_limit", 0),
            row.number("threat_row", 1),
            row.number("vp_target", 1),
            row.flag("option_2_4"),
            row.label(),
        )
        if level.threat_row < row_start:
            row.fail(f"threat_row {level.threat_row} is below the {row_start} cards of setup")
        levels[level.key] = level
        row.done()
    file.done()
    return Setup(
        tuple(counts), event_hand, at_setup, below, up_to, row_start, draws, levels, labels
    )


# ---------------------------------------------------------------------------- loading


def load(path: Path | str | None = None) -> GameData:
    """The game data of directory `path` (default: the shipped `data/`, read once per
    process), parsed and checked; ValueError naming the file and the row otherwise."""
    if path is None:
        return _load_default()
    return _load(Path(path))


@cache
def _load_default() -> GameData:
    return _load(DATA_DIR)


def _load(directory: Path) -> GameData:
    map_file = _File(directory, "map.toml")
    regions, areas, transits, edges, sites, area_rows = _map(map_file)
    locations = [*areas, *transits]
    _connected(map_file, locations, edges, "the map is not connected")
    _connected(
        map_file,
        locations,
        (edge for edge in edges if not edge.removable),
        "without its removable edges (design option 11) the map is not connected",
    )
    nations, ports = _ports(_File(directory, "ports.toml"), areas)
    pirates = _pirates(_File(directory, "pirates.toml"))
    ships = _ships(_File(directory, "ships.toml"))
    events_file = _File(directory, "events.toml")
    events, event_rows = _events(events_file)
    charts = _charts(_File(directory, "charts.toml"))
    for area in areas.values():
        if area.cargo_column not in charts.cargo_columns:
            area_rows[area.id].fail(
                f"cargo_column {area.cargo_column!r} is not a column of "
                f"the Cargo Table (charts.toml: "
                f"{', '.join(charts.cargo_columns)})"
            )
    data = GameData(
        regions=regions,
        areas=areas,
        transits=transits,
        edges=edges,
        sites=sites,
        nations=nations,
        ports=ports,
        pirates=pirates,
        ship_types=ships.ship_types,
        tracks=ships.tracks,
        merchant_types=ships.merchant_types,
        merchants={ident: kind for kind in ships.merchant_types.values() for ident in kind.ids},
        warship_classes=ships.warship_classes,
        warships=ships.warships,
        kcs=ships.kcs,
        hostage_kinds=ships.hostage_kinds,
        hostages={ident: kind for kind in ships.hostage_kinds.values() for ident in kind.ids},
        governors=ships.governors,
        markers=ships.markers,
        events=events,
        charts=charts,
        victory=_victory(_File(directory, "victory.toml")),
        setup=_setup(_File(directory, "setup.toml")),
    )
    _check_params(events, event_rows, data)
    deal = data.setup.event_hand * data.setup.max_players
    held = data.deck().by_play()["HUP"]
    if held < deal:
        events_file.fail(
            f"the deck holds {held} Hold-until-Played cards, fewer than the "
            f"opening deal of {deal} ({data.setup.event_hand} cards x "
            f"{data.setup.max_players} players)"
        )
    return data
