"""The standings say which bot was disqualified, and rank it by what it scored: last."""

from __future__ import annotations

import io

from rich.console import Console

from admiralty.console.leaderboard import leaderboard_table
from admiralty.tournament.plan import PlannedMatch
from admiralty.tournament.ratings import make_rater
from admiralty.tournament.standings import standings
from admiralty.tournament.store import Result


def result(match_id: str, places: list[int], incidents: list[dict]) -> Result:
    return Result(match_id, places, [10, 5], [], incidents, [[1.0], [1.0]], 10, None)


def test_a_disqualified_bot_is_shown_so_and_ranked_below_a_working_one():
    plan = [PlannedMatch(f"m{i}", i, 1, i, (0, 1)) for i in range(3)]
    gone = {"request_id": "", "seat": 1, "kind": "unreachable", "applied_index": 0,
            "detail": "disqualified: its process died 3 times; the seat is played by the "
                      "policy from now on and placed last"}
    results = {"m0": result("m0", [2, 1], []),
               "m1": result("m1", [1, 2], [gone]),
               "m2": result("m2", [1, 2], [gone])}
    rows = standings(["working", "dying"], plan, results, make_rater("trueskill"))
    assert [(row.bot, row.disqualified) for row in rows] == [("working", False),
                                                              ("dying", True)]
    assert rows[1].to_json(2)["disqualified"] is True
    console = Console(width=100, file=io.StringIO(), color_system=None)
    console.print(leaderboard_table(rows))
    assert "dying (disqualified)" in console.file.getvalue()
