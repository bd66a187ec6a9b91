"""The encoder: a seat's view and its open request as one float32 vector and a mask.

The vector is the view's fields (`layout`), then one row per action (`ACTION_BOUNDS`):
for option `i` of the request, a 1, the request's kind, the verb of its key (the part
before the first ":") and its payload's fields (`payload_layout`); rows past the last
option are zeros, as is the mask there.

An `Encoder` keeps its vector between calls and writes again only the parts of the view
that changed since the previous call: each top-level field, then each field of a record
that changed, at any depth, is compared with the value last written (with `==`, in C),
and only a changed one clears and writes its own floats. Consecutive views of one seat
differ in a few places, so most of the work of an encoding is skipped. An option's row is
rendered once per content and copied whole into place. The result is the same as a
fresh encoding, whatever the views and options before (tested).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Protocol

import numpy as np

from admiralty_sdk.encoding.fields import (
    Composite,
    Field,
    OneHot,
    Rows,
    Seating,
    Step,
    fresh_cell,
    plan,
)
from admiralty_sdk.encoding.layouts import ACTION_BOUNDS, OPTIONS, layout, payload_layout

View = Mapping[str, Any]

ROW_CACHE = 4096
"""The option rows an encoder keeps rendered before it starts afresh: a bound on its
memory (a few MB) that a game's contents stay below."""


class OptionLike(Protocol):
    """An option as the engines and `wire.options` give it: its key and payload."""

    @property
    def key(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any] | None: ...


@cache
def _plan(game: str) -> tuple[Step, ...]:
    """The top-level fields of `game`'s view as the encoder compares them."""
    offsets, at = [], 0
    for field in layout(game):
        offsets.append(at)
        at += field.width
    return plan(layout(game), 0, offsets)


@cache
def view_size(game: str) -> int:
    """The floats of the view part of `game`'s vector."""
    return sum(field.width for field in layout(game))


@cache
def _option_fields(game: str) -> tuple[OneHot, OneHot, dict[str, tuple[Field, int]]]:
    """The kind and verb fields, and each payload field with its offset in the row, by the
    payload key it reads (a payload is flat; keys without a field are left out)."""
    kinds, verbs, _ = OPTIONS[game]
    at, placed = 1 + len(kinds) + len(verbs), {}
    for field in payload_layout(game):
        placed[field.path] = (field, at)
        at += field.width
    return OneHot("kind", kinds), OneHot("verb", verbs), placed


@cache
def option_width(game: str) -> int:
    kinds, verbs, _ = OPTIONS[game]
    return 1 + len(kinds) + len(verbs) + sum(field.width for field in payload_layout(game))


def option_names(game: str) -> list[str]:
    """The names of one option's row, without the `option[i].` prefix."""
    kind, verb, payload = _option_fields(game)
    return [
        "present",
        *kind.names(""),
        *verb.names(""),
        *(n for field, _ in payload.values() for n in field.names("payload.")),
    ]


@cache
def names(game: str) -> list[str]:
    """One name per float: `players[1].score` is the next seat's score, `phase=resolve` a
    one-hot position, `option[3].verb=card` the fourth option's key verb."""
    view = [name for field in layout(game) for name in field.names("")]
    row = option_names(game)
    return view + [f"option[{i}].{name}" for i in range(ACTION_BOUNDS[game]) for name in row]


@cache
def size(game: str) -> int:
    return view_size(game) + ACTION_BOUNDS[game] * option_width(game)


def players_in(game: str, view: View) -> int:
    """The number of seats of the game `view` shows."""
    if game == "black_fleet":
        return int(view["players"])
    return len(view["players"])


class Encoder:
    """Encodes the views and requests of one game, reusing its vector between calls.

    `vector` and `mask` are the encoder's own arrays, overwritten by the next `encode`:
    copy them to keep them. `strict` raises ValueError on a categorical value outside its
    vocabulary, instead of encoding zeros."""

    def __init__(self, game: str, strict: bool = False):
        self.game, self.strict = game, strict
        self.bound = ACTION_BOUNDS[game]
        self.base, self.width = view_size(game), option_width(game)
        self.buffer = array("f", bytes(4 * size(game)))
        self.vector = np.frombuffer(self.buffer, dtype=np.float32)
        self.marks = array("b", bytes(self.bound))
        self.mask = np.frombuffer(self.marks, dtype=np.int8)
        self.seating = Seating(0, 1, strict)
        self.who: tuple[int, int] | None = None
        """The viewer and players `seating` is for; None until the first view."""
        self.cell: list[Any] = []
        """The values of the view's fields as written, then the cells of their records
        (`fields.fresh_cell`)."""
        self.rows: list[tuple[str | None, str, Any]] = []
        """The (kind, key, payload) of each option row written: as many as the mask's ones."""
        self.rendered: dict[tuple[Any, ...], array] = {}
        """Option rows by content (`_row`), for the current `seating`."""

    def encode(
        self, view: View, kind: str | None = None, options: Sequence[OptionLike] = ()
    ) -> np.ndarray:
        """The vector of `view` (a seat's) and, if it is asked, its request's `kind` and
        `options`; `mask` then marks the options. Returns `vector` (not a copy)."""
        self._view(view)
        self._options(kind, options)
        return self.vector

    def _view(self, view: View) -> None:
        viewer = view.get("viewer")
        who = (viewer if viewer.__class__ is int else 0, players_in(self.game, view))
        if who != self.who:
            self._seated(*who)
        self._diff(_plan(self.game), view, self.cell, 0)

    def _seated(self, viewer: int, players: int) -> None:
        """Start afresh for another viewer: every float depends on whose seat is slot 0."""
        self.who = (viewer, players)
        self.seating = Seating(viewer, players, self.strict)
        self.vector[:] = 0.0
        self.cell = fresh_cell(layout(self.game), 0)
        self.rows.clear()
        self.rendered.clear()

    def _diff(self, steps: tuple[Step, ...], data: Any, cell: list[Any], at: int) -> None:
        """Compare each field of `data` with its value in `cell` and write again, at `at`
        and its offset, those that changed: a `Rows` or `Record` field record by record."""
        for slot, get, field, offset, inner in steps:
            value = get(data)
            if value != cell[slot]:
                cell[slot] = value
                if inner is None:
                    self._field(field, value, at + offset)
                else:
                    self._nested(field, value, at + offset, cell[inner])

    def _clear(self, start: int, end: int) -> None:
        self.buffer[start:end] = _zeros("f", end - start)

    def _field(self, field: Field, value: Any, at: int) -> None:
        """Write `field` at `at` again, whole."""
        if field.width == 1:
            self.buffer[at] = 0.0
        else:
            self._clear(at, at + field.width)
        field.write(value, self.seating, self.buffer, at)

    def _nested(self, field: Composite, value: Any, at: int, cells: list[list[Any]]) -> None:
        """Write again the records of a `Rows` or `Record` field, each in its own cell."""
        if isinstance(field, Rows):
            placed, width = field.placed(value, self.seating), field.record_width
            for slot, label in enumerate(field.slots):
                self._record(field, placed.get(label), at + slot * width, cells[slot])
        else:
            self._record(field, value, at, cells[0])

    def _record(self, owner: Composite, record: Any, at: int, cell: list[Any]) -> None:
        """Write `record` (None: absent) over the one written at `at`, whose values `cell`
        holds (empty: none was there; `cell[0]` is the record): only the fields whose
        value changed are written again."""
        if record is None:
            if cell:
                self._clear(at, at + owner.record_width)
                cell.clear()
            return
        if not cell:
            cell.extend(fresh_cell(owner.fields, 1))
            self.buffer[at] = 1.0
        elif record == cell[0]:
            return
        cell[0] = record
        self._diff(owner.plan, record, cell, at)

    def _options(self, kind: str | None, options: Sequence[OptionLike]) -> None:
        """One row per option, writing again only the rows whose option changed."""
        count, rows = len(options), self.rows
        if count > self.bound:
            raise ValueError(f"{count} options, more than {self.game}'s {self.bound} actions")
        shown = len(rows)
        if count < shown:
            self._clear(self.base + count * self.width, self.base + shown * self.width)
            self.marks[count:shown] = _zeros("b", shown - count)
            del rows[count:]
        elif count > shown:
            self.marks[shown:count] = _ones(count - shown)
        for row, option in enumerate(options):
            written = (kind, option.key, option.payload)
            if row < shown:
                if rows[row] == written:
                    continue
                rows[row] = written
            else:
                rows.append(written)
            start = self.base + row * self.width
            self.buffer[start : start + self.width] = self._row(*written)

    def _row(self, kind: str | None, key: str, data: Any) -> array:
        """The floats of an option's row, rendered once per content: a seat meets a few
        hundred contents in forty games (a Jamaica seat some 1,400, most of them
        loads), so the rows of a run soon come from the cache."""
        content = _content(kind, key, data)
        row = self.rendered.get(content)
        if row is None:
            if len(self.rendered) >= ROW_CACHE:
                self.rendered.clear()
            row = self.rendered[content] = self._render(kind, key, data)
        return row

    def _render(self, kind: str | None, key: str, data: Any) -> array:
        """An option's row afresh: a 1, the kind, the key's verb, the payload."""
        kinds, verbs, payload = _option_fields(self.game)
        out, seating = array("f", bytes(4 * self.width)), self.seating
        out[0] = 1.0
        kinds.write(kind, seating, out, 1)
        verbs.write(key.partition(":")[0], seating, out, 1 + kinds.width)
        for name, value in (data or {}).items():
            placed = payload.get(name)
            if placed is not None and value is not None:
                placed[0].write(value, seating, out, placed[1])
        return out


def _content(kind: str | None, key: str, payload: Mapping[str, Any] | None) -> tuple[Any, ...]:
    """An option as a dict key: its kind, key and payload items (a list as a tuple)."""
    if not payload:
        return (kind, key)
    content = (kind, key, *payload.items())
    try:
        hash(content)
    except TypeError:  # a list in the payload (Jamaica's payments, Blackbeard's holds)
        items = ((name, tuple(v) if v.__class__ is list else v) for name, v in payload.items())
        return (kind, key, *items)
    return content


@cache
def _zeros(typecode: str, length: int) -> array:
    """A zero array to clear a slice with (a slice of an array is cleared in place by a
    copy, far quicker than a numpy assignment for the short slices here)."""
    return array(typecode, bytes(array(typecode).itemsize * length))


@cache
def _ones(length: int) -> array:
    return array("b", b"\x01" * length)


def encode(
    game: str,
    view: View,
    players: int | None = None,
    strict: bool = False,
    kind: str | None = None,
    options: Sequence[OptionLike] = (),
) -> list[float]:
    """`view` (and the request's `kind` and `options`, if any) as `size(game)` floats, by
    a fresh `Encoder`. `players`, if given, must be the view's."""
    if players is not None and players != players_in(game, view):
        raise ValueError(f"the view shows {players_in(game, view)} players, not {players}")
    return Encoder(game, strict).encode(view, kind, options).tolist()
