"""docs/research.md states each game's player range, observation length and action space:
the figures must be the code's."""

from __future__ import annotations

import re
from pathlib import Path

from admiralty.research import encoding
from admiralty.research.actions import ACTION_BOUNDS, PLAYERS

DOC = Path(__file__).parents[2] / "docs" / "research.md"


def test_the_table_of_games_matches_the_adapters():
    rows = re.findall(
        r"^\| `(\w+)` \| (\d+)-(\d+) \| (\d+) \| (\d+) \|$", DOC.read_text(), re.MULTILINE
    )
    stated = {
        game: (int(low), int(high), int(floats), int(actions))
        for game, low, high, floats, actions in rows
    }
    assert stated == {
        game: (
            PLAYERS[game].start,
            PLAYERS[game].stop - 1,
            encoding.size(game),
            ACTION_BOUNDS[game],
        )
        for game in PLAYERS
    }
