"""The kinds of field a layout is made of, each writing a fixed number of floats.

A field reads one part of a record (the view, a player, an option's payload) at its
dotted `path` and writes `width` floats from `at` into a float32 buffer that is zero
there beforehand: only the non-zero floats are written, which is what makes a sparse
encoding cheap. Seats are written relative to the viewer (`Seating`). A hidden part of
a view is None and writes nothing, exactly as an absent record does.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Protocol

Getter = Callable[[Any], Any]


class Field(Protocol):
    @property
    def path(self) -> str: ...

    @property
    def width(self) -> int: ...

    def names(self, prefix: str) -> list[str]: ...

    def write(self, value: Any, seat: Seating, out: array, at: int) -> None:
        """Write the floats of `value` (the data at this field's path) from `at`."""


@dataclass(frozen=True)
class Seating:
    """Who is looking: seats are made relative to `viewer`, among `players`."""

    viewer: int
    players: int
    strict: bool = False
    """Raise on a categorical value outside its vocabulary (the tests' check)."""

    def unknown(self, path: str, value: Any) -> None:
        if self.strict:
            raise ValueError(f"{path}: {value!r} is not in its vocabulary")

    def relative(self, seat: Any) -> int | None:
        """The slot of `seat` seen from the viewer (0 = itself), None for no seat."""
        if seat.__class__ is not int or not 0 <= seat < self.players:
            return None
        return (seat - self.viewer) % self.players


def getter(path: str) -> Getter:
    """A function reading the value at a dotted `path` of nested dicts ("": the data
    itself); None where a part is absent or not a dict."""
    if not path:
        return _itself
    parts = path.split(".")
    if len(parts) == 1:
        return _key_getter(path)

    def get(data: Any) -> Any:
        for part in parts:
            if data.__class__ is not dict:
                return None
            data = data.get(part)
        return data

    return get


def _itself(data: Any) -> Any:
    return data


def _key_getter(key: str) -> Getter:
    def get(data: Any) -> Any:
        return data.get(key) if data.__class__ is dict else None

    return get


def _join(prefix: str, path: str) -> str:
    """The name of the data at `path` below `prefix` (which ends in "." when not empty)."""
    return prefix + path if path else prefix.rstrip(".")


UNSEEN = object()
"""What no value equals: a field not written yet."""


Step = tuple[int, Getter, Any, int, "int | None"]
"""One field of a record as the encoder compares it: its slot in the record's cell, its
getter, the field, its offset, and the slot of its records' own cells (Rows, Record)."""


def plan(fields: tuple[Field, ...], first: int, offsets: list[int]) -> tuple[Step, ...]:
    """The steps comparing `fields` (at `offsets`) with their values in a cell made by
    `fresh_cell(fields, first)`."""
    steps, nested = [], first + len(fields)
    for i, part in enumerate(fields):
        inner = None
        if isinstance(part, Composite):
            inner, nested = nested, nested + 1
        steps.append((first + i, getter(part.path), part, offsets[i], inner))
    return tuple(steps)


def fresh_cell(fields: tuple[Field, ...], first: int) -> list[Any]:
    """The values of `fields` as written, before anything is: `first` slots, then no
    value for any field, then empty cells for the records of `Rows` and `Record` fields."""
    nested: list[Any] = [
        [[] for _ in part.slots] if isinstance(part, Rows) else [[]]
        for part in fields
        if isinstance(part, Composite)
    ]
    return [UNSEEN] * (first + len(fields)) + nested


def _positions(vocab: tuple[Any, ...]) -> dict[tuple[type, Any], int]:
    """Each item's position in `vocab`, told apart by type too (True is no 1)."""
    return {(type(item), item): i for i, item in enumerate(vocab)}


@dataclass(frozen=True)
class Num:
    """A number (a bool as 0/1), divided by `scale`; None (hidden, absent) is 0."""

    path: str
    scale: float = 1.0
    width = 1

    def names(self, prefix: str) -> list[str]:
        return [_join(prefix, self.path)]

    def write(self, value: Any, seat: Seating, out: array, at: int) -> None:
        if value and isinstance(value, int | float):
            out[at] = value / self.scale


@dataclass(frozen=True)
class _Vocabulary:
    """A field with one float per item of `vocab`, named `path` `mark` item."""

    path: str
    vocab: tuple[Any, ...]
    mark: ClassVar[str]

    @property
    def width(self) -> int:
        return len(self.vocab)

    @cached_property
    def positions(self) -> dict[tuple[type, Any], int]:
        return _positions(self.vocab)

    def names(self, prefix: str) -> list[str]:
        return [f"{_join(prefix, self.path)}{self.mark}{item}" for item in self.vocab]


@dataclass(frozen=True)
class OneHot(_Vocabulary):
    """A categorical value over `vocab`; a value outside it (None, hidden) is all zeros."""

    mark = "="

    def write(self, value: Any, seat: Seating, out: array, at: int) -> None:
        if value is not None:
            position = self.positions.get((value.__class__, value))
            if position is None:
                seat.unknown(self.path, value)
            else:
                out[at + position] = 1.0


@dataclass(frozen=True)
class Tally(_Vocabulary):
    """How many times each item of `vocab` appears in a list (or as a mapping's keys)."""

    mark = "#"

    def write(self, value: Any, seat: Seating, out: array, at: int) -> None:
        positions = self.positions
        for item in value or ():
            position = positions.get((item.__class__, item))
            if position is None:
                seat.unknown(self.path, item)
            else:
                out[at + position] += 1.0


@dataclass(frozen=True)
class Count:
    """The length of a list (0 when hidden or absent)."""

    path: str
    width = 1

    def names(self, prefix: str) -> list[str]:
        return [f"{_join(prefix, self.path)}#len"]

    def write(self, value: Any, seat: Seating, out: array, at: int) -> None:
        if value:
            out[at] = len(value)


@dataclass(frozen=True)
class Seat:
    """A seat number as a one-hot over `slots` relative seats (0 = the viewer), then over
    `others`, values that stand for no seat (Jamaica's Ghost Ship, -1)."""

    path: str
    slots: int
    others: tuple[Any, ...] = ()

    @property
    def width(self) -> int:
        return self.slots + len(self.others)

    @cached_property
    def positions(self) -> dict[tuple[type, Any], int]:
        return _positions(self.others)

    def names(self, prefix: str) -> list[str]:
        name = _join(prefix, self.path)
        return [f"{name}[{slot}]" for slot in range(self.slots)] + [
            f"{name}={other}" for other in self.others
        ]

    def write(self, value: Any, seat: Seating, out: array, at: int) -> None:
        slot = seat.relative(value)
        if slot is not None:
            out[at + slot] = 1.0
        elif value is not None:
            position = self.positions.get((value.__class__, value))
            if position is None:
                seat.unknown(self.path, value)
            else:
                out[at + self.slots + position] = 1.0


class Composite:
    """A record's `fields`, each read at its own path, written one after another."""

    fields: tuple[Field, ...]

    @cached_property
    def inner(self) -> tuple[tuple[Getter, Field, int], ...]:
        """Each field with its getter and its offset within the record, after `present`."""
        out, at = [], 1
        for part in self.fields:
            out.append((getter(part.path), part, at))
            at += part.width
        return tuple(out)

    @cached_property
    def record_width(self) -> int:
        return 1 + sum(part.width for part in self.fields)

    def record_names(self, prefix: str) -> list[str]:
        return [prefix + "present", *(n for f in self.fields for n in f.names(prefix))]

    @cached_property
    def plan(self) -> tuple[Step, ...]:
        """The record's fields as the encoder compares them (`cell[0]` is the record)."""
        return plan(self.fields, 1, [offset for _, _, offset in self.inner])

    def write_record(self, record: Any, seat: Seating, out: array, at: int) -> None:
        """A 1 and the record's fields; nothing at all for an absent record."""
        if record is None:
            return
        out[at] = 1.0
        for get, part, offset in self.inner:
            part.write(get(record), seat, out, at + offset)


SlotOf = Callable[[Any, int, Seating], Any]


@dataclass(frozen=True)
class Rows(Composite):
    """A list (or a mapping's values) of records, each encoded by `fields` into the slot
    `slot(record, index, seat)` of `slots`; records without a slot are left out (`strict`
    raises), empty slots are zeros, and each slot starts with a 1 if it holds a record."""

    path: str
    slots: tuple[Any, ...]
    fields: tuple[Field, ...]
    slot: SlotOf

    @property
    def width(self) -> int:
        return len(self.slots) * self.record_width

    @cached_property
    def offsets(self) -> dict[Any, int]:
        return {label: i * self.record_width for i, label in enumerate(self.slots)}

    def names(self, prefix: str) -> list[str]:
        return [
            n for label in self.slots for n in self.record_names(f"{prefix}{self.path}[{label}].")
        ]

    def placed(self, records: Any, seat: Seating) -> dict[Any, Any]:
        """Each slot's record (the first one to claim it), by slot label."""
        if records.__class__ is dict:
            records = list(records.values())
        placed: dict[Any, Any] = {}
        offsets, slot = self.offsets, self.slot
        for index, record in enumerate(records or ()):
            label = slot(record, index, seat)
            if label in offsets:
                placed.setdefault(label, record)
            else:
                seat.unknown(self.path, label)
        return placed

    def write(self, value: Any, seat: Seating, out: array, at: int) -> None:
        offsets = self.offsets
        for label, record in self.placed(value, seat).items():
            self.write_record(record, seat, out, at + offsets[label])


@dataclass(frozen=True)
class Record(Composite):
    """A record that may be absent (None): a 1 if it is there, then its `fields`."""

    path: str
    fields: tuple[Field, ...]

    @property
    def width(self) -> int:
        return self.record_width

    def names(self, prefix: str) -> list[str]:
        return self.record_names(f"{prefix}{self.path}.")

    def write(self, value: Any, seat: Seating, out: array, at: int) -> None:
        self.write_record(value, seat, out, at)


@dataclass(frozen=True)
class Keyed:
    """A mapping's values at each of `keys`, each encoded by `field` (absent: zeros)."""

    path: str
    keys: tuple[Any, ...]
    field: Field

    @property
    def width(self) -> int:
        return len(self.keys) * self.field.width

    def names(self, prefix: str) -> list[str]:
        return [n for key in self.keys for n in self.field.names(f"{prefix}{self.path}.{key}")]

    def write(self, value: Any, seat: Seating, out: array, at: int) -> None:
        if not value:
            return
        step, write = self.field.width, self.field.write
        for key in self.keys:
            write(value.get(key), seat, out, at)
            at += step


def by_position(record: Any, index: int, seat: Seating) -> int:
    return index


def by_relative_seat(record: Any, index: int, seat: Seating) -> int | None:
    """Players' records (the `index`-th is seat `index`) in relative order."""
    return seat.relative(index)


@dataclass(frozen=True)
class by_key:
    """The slot of a record named by its own `key` field (a pirate's id, a port's code)."""

    key: str
    _get: Getter = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_get", getter(self.key))

    def __call__(self, record: Any, index: int, seat: Seating) -> Any:
        return self._get(record)


Layout = tuple[Field, ...]
