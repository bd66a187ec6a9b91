"""docs/research.md states each game's player range, encoding sizes, action space and
layouts: the figures must be the code's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from admiralty.research import encoding
from admiralty.research.actions import ACTION_BOUNDS, PLAYERS
from admiralty_sdk.encoding import OPTIONS, layout, option_width, payload_layout, view_size

DOC = Path(__file__).parents[2] / "docs" / "research.md"


def test_the_table_of_games_matches_the_adapters():
    rows = re.findall(
        r"^\| `(\w+)` \| (\d+)-(\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$",
        DOC.read_text(),
        re.MULTILINE,
    )
    stated = {game: tuple(int(figure) for figure in figures) for game, *figures in rows}
    assert stated == {
        game: (
            PLAYERS[game].start,
            PLAYERS[game].stop - 1,
            view_size(game),
            option_width(game),
            encoding.size(game),
            ACTION_BOUNDS[game],
        )
        for game in PLAYERS
    }


def _tables(game: str) -> list[list[tuple[str, int, int, str]]]:
    """The rows (field, offset, floats, kind) of the two tables under the game's heading."""
    section = DOC.read_text().split(f"(`{game}`)\n")[1].split("\n#")[0]
    tables, rows = [], []
    for line in [*section.splitlines(), ""]:
        match = re.match(r"^\| `([\w.]+)` \| (\d+) \| (\d+) \| (\w+) \|", line)
        if match:
            name, offset, width, kind = match.groups()
            rows.append((name, int(offset), int(width), kind))
        elif rows:
            tables, rows = [*tables, rows], []
    return tables


def _rows(fields, start: int, prefix: str = "") -> list[tuple[str, int, int, str]]:
    out = []
    for field in fields:
        out.append((prefix + field.path, start, field.width, type(field).__name__))
        start += field.width
    return out


@pytest.mark.parametrize("game", list(PLAYERS))
def test_the_layout_tables_match_the_layouts(game):
    view, option = _tables(game)
    assert view == _rows(layout(game), 0)
    kinds, verbs, _ = OPTIONS[game]
    head = [
        ("present", 0, 1, "Num"),
        ("kind", 1, len(kinds), "OneHot"),
        ("verb", 1 + len(kinds), len(verbs), "OneHot"),
    ]
    assert option == head + _rows(payload_layout(game), 1 + len(kinds) + len(verbs), "payload.")
