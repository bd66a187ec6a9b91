"""`tournament list`, `tournament show` with --matches, --head-to-head, --history and
--seats (tables within 80 columns, and --json), and the live leaderboard built one result
at a time; all from a database filled through the store API, no bot launched."""

from __future__ import annotations

import json
import os
import socket
import sqlite3

import pytest
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.tournament import PlannedMatch, Result, Runner, Store, Tournament
from admiralty.tournament.runner import LiveLeaderboard, leaderboard

HOST = socket.gethostname()
LEASE = Runner(os.getpid(), HOST, "2030-01-01T10:00:00+00:00")
# three bots, three seats: one group, its three rotations, two rounds
PLAN = [
    PlannedMatch(
        f"cup-r{r}-s{s}", 3 * (r - 1) + s - 1, r, 100 + r, tuple((s - 1 + k) % 3 for k in range(3))
    )
    for r in (1, 2)
    for s in (1, 2, 3)
]
CRASH = {
    "request_id": "2",
    "seat": 0,
    "kind": "crash",
    "applied_index": 0,
    "detail": "the connection broke",
}


def placed(match: PlannedMatch, order: dict[int, int], incidents=()) -> Result:
    """`order`: bot -> place."""
    places = [order[bot] for bot in match.seats]
    return Result(
        match.match_id,
        places,
        [10 - p for p in places],
        [],
        list(incidents),
        [[1.0, 2.0, 3.0] for _ in places],
        12,
        None,
    )


def fill(tmp_path, played: int = 5, rating: str = "trueskill") -> Store:
    store = Store(tmp_path / "t.db", create=True)
    tournament = Tournament(
        "cup",
        "jamaica",
        3,
        2,
        5,
        {"rating": rating, "deals": "fresh", "records": None},
        ("a.py", "b.py", "c.py"),
        ("ace", "bee", "sea"),
    )
    store.create(tournament, PLAN, LEASE)
    store.release_lease("cup", LEASE)
    for match in PLAN[:played]:
        # ace always 1st, bee and sea share 2nd, except in the 2nd match: bee 1st alone
        order = {0: 1, 1: 2, 2: 2} if match.ordinal != 1 else {0: 2, 1: 1, 2: 3}
        seat_of_sea = match.seats.index(2)
        crash = [dict(CRASH, seat=seat_of_sea)] if match.ordinal == 0 else []
        store.save_result("cup", placed(match, order, crash))
    return store


def admiralty(*args: str):
    return CliRunner().invoke(app, list(args), terminal_width=80)


def test_list_names_every_tournament_with_its_progress_and_state(tmp_path):
    store = fill(tmp_path)
    other = Tournament("open", "blackbeard", 1, 1, 9, {"rating": "trueskill"}, ("x.py",), ("x",))
    store.create(other, [PlannedMatch("open-r1-s1", 0, 1, 1, (0,))], LEASE)  # still leased
    result = admiralty("tournament", "list", "--db", str(tmp_path / "t.db"), "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["tournaments"]
    assert [
        (r["name"], r["game"], r["players"], r["bots"], r["played"], r["planned"], r["state"])
        for r in rows
    ] == [("cup", "jamaica", 3, 3, 5, 6, "stopped"), ("open", "blackbeard", 1, 1, 0, 1, "running")]
    assert all(r["created"] for r in rows)
    text = admiralty("tournament", "list", "--db", str(tmp_path / "t.db")).stdout
    assert "cup  " in text and "5/6" in text and "stopped" in text and "running" in text
    assert max(map(len, text.splitlines())) <= 80


def test_a_finished_tournament_is_listed_finished_and_an_empty_file_says_so(tmp_path):
    fill(tmp_path, played=6)
    rows = json.loads(
        admiralty("tournament", "list", "--db", str(tmp_path / "t.db"), "--json").stdout
    )["tournaments"]
    assert rows[0]["state"] == "finished"
    Store(tmp_path / "empty.db", create=True).close()
    assert admiralty("tournament", "list", "--db", str(tmp_path / "empty.db")).stdout.startswith(
        "no tournaments in"
    )


def test_a_tournament_stored_by_an_older_admiralty_lists_without_a_creation_time(tmp_path):
    """Older versions have no `created` table: their tournaments read as created unknown,
    and the file keeps its schema version."""
    fill(tmp_path).close()
    with sqlite3.connect(tmp_path / "t.db") as db:
        db.execute("DROP TABLE created")
    store = Store(tmp_path / "t.db")
    assert store.tournament("cup").created is None
    [summary] = store.summaries()
    assert (summary.name, summary.created, summary.state) == ("cup", None, "stopped")
    text = admiralty("tournament", "list", "--db", str(tmp_path / "t.db")).stdout
    assert " - " in text.splitlines()[1] + " "
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def test_deleting_a_tournament_forgets_its_creation_time(tmp_path):
    store = fill(tmp_path)
    store.delete("cup")
    assert store.summaries() == []
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("SELECT COUNT(*) FROM created").fetchone()[0] == 0


def show(tmp_path, *flags: str):
    result = admiralty("tournament", "show", "cup", "--db", str(tmp_path / "t.db"), *flags)
    assert result.exit_code == 0, result.output
    return result


def test_show_matches_lists_seats_places_scores_and_incidents(tmp_path):
    fill(tmp_path)
    data = json.loads(show(tmp_path, "--matches", "--json").stdout)
    matches = data["matches"]
    assert [m["match_id"] for m in matches] == [m.match_id for m in PLAN]
    first = matches[0]
    assert first["played"] and first["steps"] == 12
    assert [(s["seat"], s["bot"], s["place"], s["score"]) for s in first["seats"]] == [
        (1, "ace", 1, 9),
        (2, "bee", 2, 8),
        (3, "sea", 2, 8),
    ]
    assert first["seats"][2]["incidents"] == ["crash"]
    assert matches[-1] == {
        "match_id": "cup-r2-s3",
        "round": 2,
        "played": False,
        "seats": [{"seat": 1, "bot": "sea"}, {"seat": 2, "bot": "ace"}, {"seat": 3, "bot": "bee"}],
    }
    text = show(tmp_path, "--matches").stdout
    assert "1. ace 9  2. bee 8  2. sea 8" in text and "sea crash" in text
    assert "not played: sea, ace, bee" in text
    assert max(map(len, text.splitlines())) <= 80


def test_head_to_head_counts_placed_above_over_matches_both_played(tmp_path):
    fill(tmp_path)
    data = json.loads(show(tmp_path, "--head-to-head", "--json").stdout)["head_to_head"]
    assert data["bots"] == ["ace", "bee", "sea"]
    # 5 matches played by all three; ace above both in 4; bee above ace once and sea once
    assert data["games"] == [[0, 5, 5], [5, 0, 5], [5, 5, 0]]
    assert data["wins"] == [[0, 4, 5], [1, 0, 1], [0, 0, 0]]
    text = show(tmp_path, "--head-to-head").stdout
    ace = [line for line in text.splitlines() if line.startswith("1 ace")][-1]
    assert ace.split()[2:] == ["·", "4/5", "5/5"]
    assert max(map(len, text.splitlines())) <= 80


def test_seat_win_shares_split_a_shared_first_and_add_up_to_the_matches(tmp_path):
    fill(tmp_path)
    seats = json.loads(show(tmp_path, "--seats", "--json").stdout)["seats"]
    assert [s["games"] for s in seats] == [5, 5, 5]
    assert sum(s["wins"] for s in seats) == pytest.approx(5)
    # ace's seat: 1, 3, 2 (round 1), 1, 3 (round 2); bee won the 2nd match from seat 1
    assert [s["wins"] for s in seats] == [3, 1, 1]
    assert seats[0]["win_share"] == 0.6 and seats[0]["fair_share"] == pytest.approx(0.333)
    text = show(tmp_path, "--seats").stdout
    assert "60.0%" in text and "33.3%" in text


@pytest.mark.parametrize("rating", ["trueskill", "openskill"])
def test_history_is_the_rating_after_each_game_and_ends_at_the_leaderboard(tmp_path, rating):
    store = fill(tmp_path, rating=rating)
    data = json.loads(show(tmp_path, "--history", "--json").stdout)
    history = {h["bot"]: h["points"] for h in data["history"]}
    assert [p["games"] for p in history["ace"]] == [0, 1, 2, 3, 4, 5]
    for row in data["standings"]:
        assert (history[row["bot"]][-1]["mu"], history[row["bot"]][-1]["sigma"]) == (
            row["mu"],
            row["sigma"],
        )
    assert {h[0]["mu"] for h in history.values()} == {25.0}
    text = show(tmp_path, "--history").stdout
    assert "●" in text and "░" in text and "5 games, mu" in text
    assert max(map(len, text.splitlines())) <= 80
    store.close()


def test_every_view_at_once_and_a_one_seat_tournament_says_what_it_has_not(tmp_path):
    fill(tmp_path)
    data = json.loads(
        show(tmp_path, "--matches", "--head-to-head", "--history", "--seats", "--json").stdout
    )
    assert {"standings", "matches", "head_to_head", "history", "seats"} <= set(data)
    assert data["standings"][-1]["crashes"] + data["standings"][-2]["crashes"] == 1
    store = Store(tmp_path / "t.db")
    solo = Tournament(
        "one",
        "blackbeard",
        1,
        1,
        9,
        {"rating": "trueskill", "deals": "duplicate", "records": None},
        ("x.py",),
        ("x",),
    )
    store.create(solo, [PlannedMatch("one-r1-s1", 0, 1, 1, (0,))], LEASE)
    store.save_result("one", Result("one-r1-s1", [1], [-4], [], [], [[1.0]], 3, None))
    result = admiralty(
        "tournament",
        "show",
        "one",
        "--db",
        str(tmp_path / "t.db"),
        "--head-to-head",
        "--history",
        "--seats",
        "--matches",
        "--json",
    )
    data = json.loads(result.stdout)
    assert (data["head_to_head"], data["history"], data["seats"]) == (None, None, None)
    assert data["matches"][0]["seats"] == [
        {"seat": 1, "bot": "x", "place": 1, "score": -4, "forfeited": False, "incidents": []}
    ]
    text = admiralty(
        "tournament", "show", "one", "--db", str(tmp_path / "t.db"), "--history"
    ).stdout
    assert "a one-seat tournament has no rating history" in " ".join(text.split())


def test_without_views_show_prints_what_it_did_before(tmp_path):
    fill(tmp_path)
    data = json.loads(show(tmp_path, "--json").stdout)
    assert set(data) == {
        "tournament",
        "game",
        "seed",
        "deals",
        "ranking",
        "planned",
        "finished",
        "standings",
    }


@pytest.mark.parametrize("rating", ["trueskill", "openskill"])
def test_the_live_leaderboard_adds_results_one_at_a_time(tmp_path, rating):
    store = fill(tmp_path, played=1, rating=rating)
    live = LiveLeaderboard(store, "cup")
    assert live.live is not None and live.live.updates == 1
    for match in reversed(PLAN[1:]):  # out of plan order: buffered until the prefix is in
        store.save_result("cup", placed(match, {0: 3, 1: 1, 2: 2}))
        live.add(match)
    assert live.live.updates == len(PLAN)
    assert [r.to_json(1) for r in live.rows()] == [r.to_json(1) for r in leaderboard(store, "cup")]
