"""Honest standings: which bot was disqualified or crashed, shown in every view; latencies
over the decisions answered, their p95 by nearest rank."""

from __future__ import annotations

import io

from rich.console import Console

from admiralty.console.leaderboard import leaderboard_table
from admiralty.tournament.plan import PlannedMatch
from admiralty.tournament.ratings import make_rater
from admiralty.tournament.solo import solo_standings
from admiralty.tournament.standings import answered_latencies, percentile, standings
from admiralty.tournament.store import Result


def result(match_id: str, places: list[int], incidents: list[dict]) -> Result:
    return Result(match_id, places, [10, 5], [], incidents, [[1.0], [1.0]], 10, None)


def test_a_disqualified_bot_is_shown_so_and_ranked_below_a_working_one():
    plan = [PlannedMatch(f"m{i}", i, 1, i, (0, 1)) for i in range(3)]
    gone = {
        "request_id": "",
        "seat": 1,
        "kind": "unreachable",
        "applied_index": 0,
        "detail": "disqualified: its process died 3 times; the seat is played by the "
        "policy from now on and placed last",
    }
    results = {
        "m0": result("m0", [2, 1], []),
        "m1": result("m1", [1, 2], [gone]),
        "m2": result("m2", [1, 2], [gone]),
    }
    rows = standings(["working", "dying"], plan, results, make_rater("trueskill"))
    assert [(row.bot, row.disqualified) for row in rows] == [("working", False), ("dying", True)]
    assert rows[1].to_json(2)["disqualified"] is True
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(leaderboard_table(rows))
    lines = console.file.getvalue().splitlines()
    assert lines[0].split()[-2:] == ["crash", "broken"]
    assert next(line for line in lines if "dying" in line).split()[-3:] == ["0", "DQ", "0"]


def test_matches_a_seat_was_retired_from_as_hung_or_broken_are_counted():
    """One per match: hung (its time bank spent), broken, or only failing now and then
    (not counted); none of them a crash."""

    def failed(kind: str, detail: str) -> dict:
        return {"request_id": "3", "seat": 1, "kind": kind, "applied_index": 0, "detail": detail}

    retired = "; the seat is played by the policy from now on and placed last"
    plan = [PlannedMatch(f"m{i}", i, 1, i, (0, 1)) for i in range(3)]
    results = {
        "m0": result(
            "m0", [1, 2], [failed("timeout", "time bank exhausted: the bot is hung" + retired)]
        ),
        "m1": result(
            "m1",
            [1, 2],
            [failed("illegal", "option 7 of 3")] * 2
            + [failed("illegal", "3 failed answers in a row: the bot is broken" + retired)],
        ),
        "m2": result("m2", [1, 2], [failed("stale", "answered request '2', asked '3'")]),
    }
    rows = {
        row.bot: row.to_json(1)
        for row in standings(["steady", "flaky"], plan, results, make_rater("trueskill"))
    }
    assert (rows["flaky"]["broken"], rows["flaky"]["incidents"]) == (2, 5)
    assert rows["flaky"]["crashes"] == rows["steady"]["broken"] == 0


def crash(seat: int, request_id: str) -> dict:
    return {
        "request_id": request_id,
        "seat": seat,
        "kind": "crash",
        "applied_index": 0,
        "detail": "the connection broke: Socket closed",
    }


def test_p95_is_the_nearest_rank_the_ceiling_of_095_n():
    assert percentile(list(range(1, 11)), 95) == 10  # 9.5 -> the 10th, not the 9th
    assert percentile(list(range(1, 21)), 95) == 19  # 19.0 -> the 19th
    assert percentile(list(range(1, 31)), 95) == 29  # 28.5 -> the 29th
    assert percentile([7.0], 95) == 7.0
    assert percentile([5.0, 1.0, 3.0], 50) == 3.0


def test_failed_calls_are_incidents_not_latencies():
    """The referee records a latency per call, numbered 1, 2, ... (the request id); the
    2nd call of seat 1 crashed: its latency (the time to the break) is left out."""
    one = Result(
        "m0", [1, 2], [10, 5], [], [crash(1, "2")], [[5.0, 6.0], [3.0, 0.1, 4.0]], 10, None
    )
    assert answered_latencies(one, 0) == [5.0, 6.0]
    assert answered_latencies(one, 1) == [3.0, 4.0]
    retired = {
        "request_id": "",
        "seat": 1,
        "kind": "unreachable",
        "applied_index": -1,
        "detail": "gone",
    }
    assert (
        answered_latencies(Result("m1", [1, 2], [1, 1], [], [retired], [[], []], 1, None), 1) == []
    )


def test_a_dead_bot_shows_its_crashes_and_no_flattering_latency():
    """A bot that dies at once answers nothing: its seats' failed calls took 0.2 ms each,
    which used to make its p95 the best of the table. Its crashes are counted instead."""
    plan = [PlannedMatch(f"m{i}", i, 1, i, (0, 1)) for i in range(4)]
    results = {
        m.match_id: Result(
            m.match_id, [2, 1], [3, 8], [], [crash(1, "1")], [[40.0, 50.0], [0.2]], 10, None
        )
        for m in plan
    }
    rows = {
        r.bot: r.to_json(1)
        for r in standings(["alive", "dead"], plan, results, make_rater("trueskill"))
    }
    assert rows["dead"]["latency_p95_ms"] is None and rows["dead"]["answered"] == 0
    assert (rows["dead"]["crashes"], rows["dead"]["incidents"]) == (4, 4)
    assert rows["alive"]["latency_p95_ms"] == 50.0 and rows["alive"]["crashes"] == 0
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(
        leaderboard_table(
            list(standings(["alive", "dead"], plan, results, make_rater("trueskill")))
        )
    )
    dead_line = next(line for line in console.file.getvalue().splitlines() if " dead " in line)
    assert dead_line.split()[-3:] == ["4", "4", "0"]  # inc, crash, broken


def test_a_one_seat_leaderboard_counts_crashes_too():
    plan = [PlannedMatch(f"m{r}", r, r, r, (0,)) for r in range(1, 4)]
    results = {
        m.match_id: Result(m.match_id, [1], [-3], [], [crash(0, "1")], [[0.2, 9.0]], 5, None)
        for m in plan
    }
    [row] = solo_standings(["solo"], plan, results)
    data = row.to_json(1)
    assert (data["crashes"], data["incidents"], data["latency_mean_ms"]) == (3, 3, 9.0)
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(leaderboard_table([row]))
    assert max(len(line) for line in console.file.getvalue().splitlines()) <= 80
    assert "crash" in console.file.getvalue()


def test_the_crash_column_counts_deaths_outside_any_call():
    """A launched bot that died answering MatchOver has no crash incident for it; the
    deaths its launcher counted (the store's) show in the crash column all the same, and
    a crash incident is never counted twice."""
    plan = [PlannedMatch(f"m{i}", i, 1, i, (0, 1)) for i in range(2)]
    results = {
        m.match_id: Result(
            m.match_id, [1, 2], [3, 1], [], [crash(1, "1")] * (i == 0), [[1.0], [1.0]], 10, None
        )
        for i, m in enumerate(plan)
    }
    rows = {row.bot: row for row in standings(["a", "b"], plan, results, make_rater("trueskill"))}
    assert rows["b"].to_json(2)["crashes"] == 1
    rows["b"].deaths = 3
    assert rows["b"].to_json(2)["crashes"] == 3
    rows["b"].deaths = 1  # the death in the call, seen by the launcher too
    assert rows["b"].to_json(2)["crashes"] == 1
