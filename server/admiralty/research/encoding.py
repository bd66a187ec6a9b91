"""Fixed-shape numeric observations of a seat's view, declared per game as a layout.

A layout is a tuple of fields, each reading one part of `state.view(seat)` (never the
state itself) and writing a fixed number of floats: a number, a one-hot of a
categorical value, a tally of a list over its vocabulary, a seat made relative to the
viewer, or rows of records (players, pirates, ports) put in fixed slots. Vocabularies
come from each game's data, so a layout's length is fixed per game, whatever the player
count. Seats are relative: slot 0 is always the viewer, slot 1 the next seat, and so on.
Hidden parts of a view are None and encode as zeros, exactly as an absent record does.

>>> from admiralty.games import load_game
>>> state = load_game("jamaica").new_game(3, seed=1)
>>> vector = encode("jamaica", state.view(0), 3)
>>> len(vector) == size("jamaica")
True
>>> names("jamaica")[:3]
['round', 'captain[0]', 'captain[1]']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from admiralty.games import load_game
from admiralty.games.blackbeard.data import load as blackbeard_data
from admiralty.games.jamaica.data import load as jamaica_data
from admiralty.games.jamaica.options import GHOST

View = Mapping[str, Any]


class Field(Protocol):
    def names(self, prefix: str) -> list[str]: ...

    def write(self, value: Any, seat: _Seating, out: list[float]) -> None:
        """Append exactly `len(self.names(...))` floats for `value` (the data at its path)."""


@dataclass(frozen=True)
class _Seating:
    viewer: int
    players: int
    strict: bool = False
    """Raise on a categorical value outside its vocabulary (the tests' check)."""

    def unknown(self, path: str, value: Any) -> None:
        if self.strict:
            raise ValueError(f"{path}: {value!r} is not in its vocabulary")

    def relative(self, seat: Any) -> int | None:
        """The slot of `seat` seen from the viewer (0 = itself), None for no seat."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            return None
        return (seat - self.viewer) % self.players


def _at(data: Any, path: str) -> Any:
    """The value at a dotted `path` of nested mappings; "" is `data` itself; None if absent."""
    for part in path.split(".") if path else ():
        if not isinstance(data, Mapping):
            return None
        data = data.get(part)
    return data


@dataclass(frozen=True)
class Num:
    """A number (a bool as 0/1), divided by `scale`; None (hidden, absent) is 0."""

    path: str
    scale: float = 1.0

    def names(self, prefix: str) -> list[str]:
        return [prefix + self.path]

    def write(self, value: Any, seat: _Seating, out: list[float]) -> None:
        value = _at(value, self.path)
        out.append(float(value) / self.scale if isinstance(value, int | float) else 0.0)


@dataclass(frozen=True)
class OneHot:
    """A categorical value over `vocab`; a value outside it (None, hidden) is all zeros."""

    path: str
    vocab: tuple[Any, ...]

    def names(self, prefix: str) -> list[str]:
        return [f"{prefix}{self.path}={item}" for item in self.vocab]

    def write(self, value: Any, seat: _Seating, out: list[float]) -> None:
        value = _at(value, self.path)
        start = len(out)
        out.extend([0.0] * len(self.vocab))
        if value is not None:
            position = _positions(self.vocab).get((type(value), value))
            if position is None:
                seat.unknown(self.path, value)
            else:
                out[start + position] = 1.0


@dataclass(frozen=True)
class Tally:
    """How many times each item of `vocab` appears in a list (or as a mapping's keys)."""

    path: str
    vocab: tuple[Any, ...]

    def names(self, prefix: str) -> list[str]:
        return [f"{prefix}{self.path}#{item}" for item in self.vocab]

    def write(self, value: Any, seat: _Seating, out: list[float]) -> None:
        start = len(out)
        out.extend([0.0] * len(self.vocab))
        for item in _at(value, self.path) or ():
            position = _positions(self.vocab).get((type(item), item))
            if position is None:
                seat.unknown(self.path, item)
            else:
                out[start + position] += 1.0


@dataclass(frozen=True)
class Seat:
    """A seat number as a one-hot over `slots` relative seats (0 = the viewer), then over
    `others`, values that stand for no seat (Jamaica's Ghost Ship, -1)."""

    path: str
    slots: int
    others: tuple[Any, ...] = ()

    def names(self, prefix: str) -> list[str]:
        return [f"{prefix}{self.path}[{slot}]" for slot in range(self.slots)] + [
            f"{prefix}{self.path}={other}" for other in self.others
        ]

    def write(self, value: Any, seat: _Seating, out: list[float]) -> None:
        value = _at(value, self.path)
        slot = seat.relative(value)
        out.extend(1.0 if slot == index else 0.0 for index in range(self.slots))
        OneHot(self.path, self.others).write(None if slot is not None else value, seat, out)


@dataclass(frozen=True)
class Rows:
    """A list (or a mapping's values) of records, each encoded by `fields` into the slot
    `slot(record, index, seat)` of `slots`; records without a slot are left out (`strict`
    raises), empty slots are zeros, and each slot starts with a 1 if it holds a record."""

    path: str
    slots: tuple[Any, ...]
    fields: tuple[Field, ...]
    slot: Callable[[Any, int, _Seating], Any]

    def names(self, prefix: str) -> list[str]:
        out = []
        for label in self.slots:
            inner = f"{prefix}{self.path}[{label}]."
            out += [inner + "present", *(n for f in self.fields for n in f.names(inner))]
        return out

    def write(self, value: Any, seat: _Seating, out: list[float]) -> None:
        records = _at(value, self.path) or ()
        if isinstance(records, Mapping):
            records = list(records.values())
        placed: dict[Any, Any] = {}
        for index, record in enumerate(records):
            label = self.slot(record, index, seat)
            if label not in self.slots:
                seat.unknown(self.path, label)
            placed.setdefault(label, record)
        for label in self.slots:
            _write_record(self, placed.get(label), seat, out)


@dataclass(frozen=True)
class Record:
    """A record that may be absent (None): a 1 if it is there, then its `fields`."""

    path: str
    fields: tuple[Field, ...]

    def names(self, prefix: str) -> list[str]:
        inner = f"{prefix}{self.path}."
        return [inner + "present", *(n for f in self.fields for n in f.names(inner))]

    def write(self, value: Any, seat: _Seating, out: list[float]) -> None:
        _write_record(self, _at(value, self.path), seat, out)


def _write_record(owner: Rows | Record, record: Any, seat: _Seating, out: list[float]) -> None:
    """A 1 and the record's `fields`, or zeros all along for an absent record."""
    if record is None:
        out.extend([0.0] * (1 + _width(owner.fields)))
        return
    out.append(1.0)
    for field in owner.fields:
        field.write(record, seat, out)


@dataclass(frozen=True)
class Keyed:
    """A mapping's values at each of `keys`, each encoded by `field` (absent: zeros)."""

    path: str
    keys: tuple[Any, ...]
    field: Field

    def names(self, prefix: str) -> list[str]:
        return [n for key in self.keys for n in self.field.names(f"{prefix}{self.path}.{key}")]

    def write(self, value: Any, seat: _Seating, out: list[float]) -> None:
        mapping = _at(value, self.path) or {}
        for key in self.keys:
            self.field.write(mapping.get(key), seat, out)


@dataclass(frozen=True)
class Count:
    """The length of a list (0 when hidden or absent)."""

    path: str

    def names(self, prefix: str) -> list[str]:
        return [f"{prefix}{self.path}#len"]

    def write(self, value: Any, seat: _Seating, out: list[float]) -> None:
        out.append(float(len(_at(value, self.path) or ())))


@cache
def _positions(vocab: tuple[Any, ...]) -> dict[tuple[type, Any], int]:
    """Each item's position in `vocab`, told apart by type too (True is no 1)."""
    return {(type(item), item): i for i, item in enumerate(vocab)}


@cache
def _width(fields: tuple[Field, ...]) -> int:
    return sum(len(field.names("")) for field in fields)


def by_position(record: Any, index: int, seat: _Seating) -> int:
    return index


def by_relative_seat(record: Any, index: int, seat: _Seating) -> int | None:
    """Players' records (the `index`-th is seat `index`) in relative order."""
    return seat.relative(index)


def by_key(key: str) -> Callable[[Any, int, _Seating], Any]:
    return lambda record, index, seat: _at(record, key)


# -- the layouts --------------------------------------------------------------------------


def _seats(game: str) -> int:
    return load_game(game).info.max_players


def _jamaica() -> tuple[Field, ...]:
    info = load_game("jamaica").static_info()
    seats = _seats("jamaica")
    cards = tuple(card["id"] for card in info["cards"])
    powers = tuple(t["id"] for t in info["treasures"] if t["kind"] == "power")
    lairs = tuple(space["id"] for space in info["spaces"] if space["kind"] == "lair")
    goods = tuple(jamaica_data().bank)
    holds = Rows(
        "holds",
        tuple(range(jamaica_data().holds + 1)),
        (OneHot("kind", goods), Num("count"), Num("sixth")),
        by_position,
    )
    ship = (
        Num("space"),
        Num("steps_left"),
        OneHot("lap", ("pre_start", "racing", "finished")),
        holds,
        Tally("powers", powers),
        Num("face_down_treasures"),
    )
    player = (
        *ship,
        Tally("treasures", tuple(sorted({t["value"] for t in info["treasures"]}))),
        Tally("hand", cards),
        Num("cards_in_hand"),
        Num("hand_limit"),
        Num("deck_size"),
        Tally("discard", cards),
        Num("has_chosen"),
        OneHot("chosen_card", cards),
        OneHot("revealed_card", cards),
        Num("score"),
    )
    combat: tuple[Field, ...] = (
        *(Seat(role, seats, (GHOST,)) for role in ("attacker", "defender", "winner")),
        OneHot(
            "stage",
            (
                "attacker_gunpowder",
                "attacker_roll",
                "defender_gunpowder",
                "defender_roll",
                "spoils",
                "stash",
            ),
        ),
        Rows("rolls", (0, 1), (OneHot("", tuple(info["combat_die"])),), by_position),
        Rows("strengths", (0, 1), (Num(""),), by_position),
        Rows("gunpowder", (0, 1), (Num(""),), by_position),
        Num("sabre_used"),
    )
    return (
        Num("round"),
        Seat("captain", seats),
        Seat("active", seats),
        OneHot("phase", ("choose_cards", "place_dice", "resolve", "ghost", "game_over")),
        Num("dice.morning"),
        Num("dice.evening"),
        Rows("dice.rolled", (0, 1), (Num(""),), by_position),
        Keyed("bank", goods, Num("")),
        Tally("lairs_with_treasure", lairs),
        Num("treasure_deck"),
        Rows("players", tuple(range(seats)), player, by_relative_seat),
        Record("ghost", ship),
        Record("combat", combat),
    )


def _black_fleet() -> tuple[Field, ...]:
    info = load_game("black_fleet").static_info()
    seats, board, rules = _seats("black_fleet"), info["board"], info["rules"]
    movement = tuple(card["id"] for card in info["movement_cards"])
    fortune = tuple(card["id"] for card in info["fortune_cards"])
    development = tuple(card["id"] for card in info["development_cards"])
    goods, navies = tuple(board["goods"]), tuple(board["navy_start"])
    ports = tuple(port["key"] for port in board["ports"])
    zones = tuple(sea["key"] for sea in board["distant_seas"])
    ship = (Num("space"), Tally("cargo", goods))
    seat = (
        Num("money"),
        Num("victory_cost"),
        Num("victory_bought"),
        Rows(
            "development",
            tuple(rules["development_costs"]),
            (Num("bought"), OneHot("card", development)),
            by_key("cost"),
        ),
        OneHot("charter_port", ports),
        Num("movement_cards_held"),
        Num("fortune_cards_held"),
        Num("fortune_limit"),
        Tally("boosts", fortune),
        Record("merchant", ship),
        Record("pirate", (*ship, OneHot("zone", zones))),
        Tally("movement_hand", movement),
        Tally("fortune_hand", fortune),
    )
    phases = (
        "place_merchant",
        "play_movement",
        "window",
        "activation",
        "choose_ship",
        "choose_destination",
        "choose_target",
        "choose_cube",
        "name_port",
        "buy",
        "discard_fortune",
        "reenter_merchant",
        "reenter_pirate",
        "over",
    )
    return (
        OneHot("phase", phases),
        OneHot("window", ("start", "first", "between", "last")),
        Seat("active_seat", seats),
        Seat("setup_seat", seats),
        Num("round"),
        Num("round_cap"),
        Num("turn"),
        Num("final_round"),
        Rows("seats", tuple(range(seats)), seat, by_relative_seat),
        Keyed("navies", navies, Num("")),
        Rows("ports", ports, (Num("stock"), Keyed("buys", goods, Num(""))), by_key("key")),
        Num("decks.movement"),
        Tally("decks.movement_discard", movement),
        Num("decks.fortune"),
        Tally("decks.fortune_discard", fortune),
        OneHot("current.played", movement),
        Tally("current.controlled_navies", navies),
        Count("current.activated"),
        Num("current.points"),
        Tally(
            "current.actions", ("deliver", "attack", "attack_pirate", "sink", "bury", "broadside")
        ),
    )


def _blackbeard() -> tuple[Field, ...]:
    data, seats = blackbeard_data(), _seats("blackbeard")
    pirates, events, ports = tuple(data.pirates), tuple(data.events), tuple(data.ports)
    places, nations, kcs = (*data.areas, *data.transits), tuple(data.nations), tuple(data.kcs)
    ship = (
        OneHot("type", tuple(data.ship_types)),
        Num("combat"),
        Num("speed"),
        Num("loyalty"),
        Rows("holds", tuple(range(4)), (Num("", 100),), by_position),
        Count("hostages"),
        Tally("attack_history", nations),
        OneHot("letter_of_marque", nations),
        Num("heavy_guns"),
        Num("scurvy"),
        OneHot("revelry", ("voluntary", "involuntary")),
    )
    pirate = (
        Seat("owner", seats),
        OneHot("area", places),
        OneHot("port", ports),
        Num("notoriety"),
        Num("net_worth", 100),
        Num("cunning_used"),
        Keyed("information", tuple(str(code) for code in ports), Num("")),
        Tally("bribed", tuple(data.governors)),
        Num("buried_treasure"),
        OneHot("sack_pending", ports),
        Num("deployed_turn"),
        Num("recover_progress"),
        Record("ship", ship),
    )
    player = (
        Num("vp"),
        Num("vp_from_net_worth"),
        Tally("retired", pirates),
        Tally("eliminated", pirates),
        Num("best_notoriety"),
        Num("event_cards"),
        Num("pirate_cards"),
        Tally("hand", events),
        Tally("pirate_hand", pirates),
    )
    port = (
        OneHot("governor", tuple(data.governors)),
        OneHot("side", ("pro", "anti")),
        Num("destroyed"),
        Num("attacked"),
        OneHot("safe_haven", pirates),
    )
    merchant = (
        Num("face_up"),
        OneHot("located_by", pirates),
        OneHot("id", tuple(data.merchants)),
        OneHot("type", tuple(data.merchant_types)),
        Num("cargo_value"),
    )
    interference = (
        Num("kc_action"),
        Num("warship"),
        Num("kc_deploy"),
        Num("reaction"),
        Num("cancelled"),
        OneHot("action", ("move", "attack", "in_port", "locate", "sack", "recover", "retire", "k")),
        OneHot("entering", places),
        OneHot("surprise", kcs),
        OneHot("sighted", tuple(data.warships)),
        Tally("titles", tuple(card.key for card in data.events.values())),
        Tally("revelry", pirates),
    )
    return (
        Num("turn"),
        Seat("active", seats),
        OneHot("phase", ("setup", "merchants", "draw", "cards", "turn_end", "over")),
        Rows("order", tuple(range(seats)), (Seat("", seats),), by_position),
        OneHot("active_pirate", pirates),
        Num("actions_left"),
        OneHot("actions_pirate", pirates),
        Num("action_number"),
        Rows("players", tuple(range(seats)), player, by_relative_seat),
        Rows("pirates", pirates, pirate, by_key("id")),
        Rows("ports", ports, port, by_key("code")),
        Rows("merchants", ports, merchant, by_key("port")),
        Keyed("patrols", tuple(data.areas), OneHot("", tuple(data.warships))),
        Rows("kcs", kcs, (Seat("owner", seats), OneHot("area", places)), by_key("id")),
        Tally("kcs_killed", kcs),
        Record("interference", interference),
        *(
            Num(f"pools.{pool}")
            for pool in ("merchants", "hostages", "warships", "kcs", "anti_governors")
        ),
        Num("event_deck"),
        Tally("discard", events),
        Num("held_out"),
        Num("pirate_deck"),
        Tally("retired", pirates),
        Tally("dead", pirates),
        Num("pardons"),
        Num("pardon_in_force"),
    )


LAYOUTS: dict[str, Callable[[], tuple[Field, ...]]] = {
    "jamaica": _jamaica,
    "black_fleet": _black_fleet,
    "blackbeard": _blackbeard,
}
"""Each game's layout, built from its data on first use."""


@cache
def layout(game: str) -> tuple[Field, ...]:
    """The fields of `game`'s encoding, in order."""
    return LAYOUTS[game]()


@cache
def names(game: str) -> list[str]:
    """One name per float of `game`'s encoding (`players[1].score` is the next seat's)."""
    return [name for field in layout(game) for name in field.names("")]


def size(game: str) -> int:
    return len(names(game))


def encode(game: str, view: View, players: int, strict: bool = False) -> list[float]:
    """`view` (a seat's, from `state.view(seat)`) as `size(game)` floats; `strict` raises
    ValueError on a categorical value its vocabulary lacks instead of encoding zeros."""
    viewer = view.get("viewer")
    seating = _Seating(viewer if isinstance(viewer, int) else 0, players, strict)
    out: list[float] = []
    for field in layout(game):
        field.write(view, seating, out)
    return out


__all__ = [
    "LAYOUTS",
    "Count",
    "Field",
    "Keyed",
    "Num",
    "OneHot",
    "Record",
    "Rows",
    "Seat",
    "Tally",
    "encode",
    "layout",
    "names",
    "size",
]
