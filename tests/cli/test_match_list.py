"""`match list` keeps every match id whole, down to 60 columns: `watch` and `match show` take
it, so a wrapped or shortened id would have to be pieced together before it can be used."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from admiralty.console.served_matches import matches_list_table

SUMMARIES = [
    {
        "match_id": f"{game}-{'0123456789abcdef'[i:] + '0123456789abcdef'[:i]}",
        "status": status,
        "steps": steps,
        "bot_names": ["example_bots/random_bot.py --seed 1", "jamaica_greedy", "random"],
    }
    for i, (game, status, steps) in enumerate(
        [
            ("black_fleet", "finished", 1234),
            ("blackbeard", "running", 56),
            ("jamaica", "aborted", 7),
        ]
    )
]


@pytest.mark.parametrize("width", [80, 60])
def test_every_id_is_whole_on_one_line(width):
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(matches_list_table(SUMMARIES))
    lines = console.file.getvalue().splitlines()
    assert max(map(len, lines)) <= width
    for summary in SUMMARIES:
        (line,) = [line for line in lines if summary["match_id"] in line]
        assert line.split()[:3] == [summary["match_id"], summary["status"], str(summary["steps"])]
