"""What the tournament and arena pages share: a table's columns and the text of its cells,
so both show one leaderboard table and one matches table (templates/tables.html)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from admiralty.text import printable


@dataclass(frozen=True)
class Column:
    key: str
    """The key of the row's value (for a leaderboard, as the JSON report names it)."""
    header: str
    meaning: str = ""
    numeric: bool = True


def legend(columns: Sequence[Column]) -> str:
    """The columns' meanings, one sentence."""
    return "; ".join(f"{c.header}: {c.meaning}" for c in columns if c.meaning) + "."


def standing_cells(columns: Sequence[Column], standing: Mapping[str, Any]) -> dict[str, Any]:
    """One leaderboard row: each column's text, and a class flagging a disqualified bot
    or one with crashes or retirements (its text says so too)."""
    flag = (
        "disqualified"
        if standing.get("disqualified")
        else "troubled"
        if standing.get("crashes") or standing.get("broken")
        else ""
    )
    return {"flag": flag, "cells": [(c, cell(standing[c.key])) for c in columns]}


def cell(value: Any) -> str:
    """A JSON value as a table shows it: numbers exactly as the JSON gives them, None as a
    dash, a paired gap as mean (low..high)."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return f"{cell(value['mean'])} ({cell(value['low'])}..{cell(value['high'])})"
    return printable(str(value))
