"""Where each item of a game's data comes from: one vocabulary for every game's data files.

The data files hold what a printing of a game could change, so a person holding the
physical game must be able to see what each item rests on and correct it without touching
code. Every item says so with the same labels:

    basis       "known" (from the rulebook or public facts about the published game) or
                "reconstructed" (designed by the project to fit the known facts)
    sources     where it comes from, in the source tags of the game's docs page; required
                for a known item and for one with `known` fields
    known       on a reconstructed item, the fields that are known after all (from `sources`)
    confidence  how firm `sources` are: "H" (two or more sources agree), "M" (one credible
                source) or "L" (one weak source); optional
    note        free text; optional
    <field>_sources, <field>_confidence
                the same for one field whose evidence differs from the rest of its item

An item is the file's top level when it holds values, each `[table]`, each row of an array
of tables, and any table nested in them that carries labels (a row of `[[cargo.row]]`);
other nested tables (an Event card's `params`, a ship's start holds) are values of their
item. `load` reads a file, checks every item's labels and hands the loader the values
alone, so a wrong or missing label fails at load time naming the file and the item:

>>> read_label({"basis": "known", "sources": "rulebook"}, "cards.toml: [[card]] row 1")
Label(basis='known', sources='rulebook', known=(), confidence='', note='')
>>> read_label({"basis": "guessed"}, "cards.toml: [[card]] row 1")
Traceback (most recent call last):
...
ValueError: cards.toml: [[card]] row 1: basis 'guessed' is not "known" or "reconstructed"
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

BASES = ("known", "reconstructed")
CONFIDENCES = ("H", "M", "L")
LABELS = ("basis", "sources", "known", "confidence", "note")
FIELD_LABELS = ("sources", "confidence")
"""The labels one field of an item may carry, as `<field>_<label>`."""


@dataclass(frozen=True, slots=True)
class Label:
    """What an item rests on: `basis` "known" (all of it, from `sources`) or
    "reconstructed" (a design; `known` names the fields that are known after all)."""

    basis: str
    sources: str = ""
    known: tuple[str, ...] = ()
    confidence: str = ""
    note: str = ""

    @property
    def is_known(self) -> bool:
        return self.basis == "known"


def label_keys(item: Mapping[str, Any]) -> list[str]:
    """The keys of `item` that label it or one of its fields, not values."""
    return [key for key in item if key in LABELS or _field_label(key)]


def _field_label(key: str) -> tuple[str, str] | None:
    """(field, label) of a `<field>_<label>` key, else None."""
    field, _, label = key.rpartition("_")
    return (field, label) if field and label in FIELD_LABELS else None


def read_label(item: Mapping[str, Any], where: str) -> Label:
    """The checked label of `item`; a ValueError starting with `where` otherwise."""

    def fail(problem: str) -> NoReturn:
        raise ValueError(f"{where}: {problem}")

    basis = item.get("basis")
    if basis is None:
        fail('missing basis label (basis = "known" or "reconstructed")')
    if basis not in BASES:
        fail(f'basis {basis!r} is not "known" or "reconstructed"')
    for key in label_keys(item):
        _check_value(item, key, fail)
    known = item.get("known", [])
    if known and basis == "known":
        fail("a known item is known as a whole: drop its `known` list")
    unknown = [name for name in known if name not in item or name in LABELS]
    if unknown:
        fail(f"known names fields the item does not have: {unknown}")
    if (basis == "known" or known) and "sources" not in item:
        fail("a known item, or one with known fields, needs sources (where it comes from)")
    return Label(
        basis,
        item.get("sources", ""),
        tuple(known),
        item.get("confidence", ""),
        item.get("note", ""),
    )


def _check_value(item: Mapping[str, Any], key: str, fail: Callable[[str], NoReturn]) -> None:
    """One label's value: text, a confidence grade or a list of field names."""
    value = item[key]
    field, label = _field_label(key) or ("", key)
    if field and (field not in item or field in LABELS):
        fail(f"{key} labels a field the item does not have")
    if key == "known":
        if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
            fail("known must be a list of field names")
    elif label == "confidence":
        if value not in CONFIDENCES:
            fail(f'{key} {value!r} is not "H", "M" or "L"')
        if (f"{field}_sources" if field else "sources") not in item:
            fail(f"{key} grades sources the item does not give")
    elif key != "basis" and (not isinstance(value, str) or not value):
        fail(f"{key} must be a non-empty string, got {value!r}")


def items(raw: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every item of a parsed data file, as (where it is, its table)."""
    if any(not _tables(value) for value in raw.values()):
        yield "top level", raw
    for key, value in raw.items():
        yield from _items(key, value, required=True)


def _items(path: str, value: Any, required: bool) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(value, dict):
        found = [(f"[{path}]", value)]
    elif _tables(value):
        found = [
            (f"[[{path}]] row {index}" + _named(row), row) for index, row in enumerate(value, 1)
        ]
    else:
        return
    for where, table in found:
        if required or label_keys(table):
            yield where, table
        for key, inner in table.items():
            yield from _items(f"{path}.{key}", inner, required=False)


def _tables(value: Any) -> bool:
    """A table or a non-empty array of tables (anything else is a value)."""
    if isinstance(value, list):
        return bool(value) and all(isinstance(row, dict) for row in value)
    return isinstance(value, dict)


def _named(row: dict[str, Any]) -> str:
    """A row's first field, which names it in error messages (`(id = 'AV')`)."""
    first = next(iter(row.items()), None)
    return f" ({first[0]} = {first[1]!r})" if first else ""


def load(path: Path) -> dict[str, Any]:
    """The values of a data file: every item's labels checked, then left out."""
    with path.open("rb") as handle:
        raw = tomllib.load(handle)
    found = list(items(raw))
    for where, table in found:
        read_label(table, f"{path.name}: {where}")
    for _, table in found:
        for key in label_keys(table):
            del table[key]
    return raw
