"""Adaptive scheduling (`--schedule adaptive`): the first block is the balanced plan, each
next block is derived from the seed and the earlier results alone, the stop rule stops,
bad requests are one line, and a run killed mid-block resumes to exactly the clean run."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest
from test_tournament_run import (
    SHORT,
    admiralty,
    killed_after,
    results,
    rows,
    run,
    tournament_args,
)
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.tournament.adaptive import (
    Adaptive,
    check_adaptive,
    choose_groups,
    neighbour_pairs,
    next_block,
    stop_reason,
)
from admiralty.tournament.plan import Deals, PlannedMatch, derive_seed, plan_matches
from admiralty.tournament.ratings import Skill, TrueSkillRater
from admiralty.tournament.runner import Settings, _block_after, new_tournament, summaries
from admiralty.tournament.standings import live_standings
from admiralty.tournament.store import Result, Runner, Store, Tournament

ADAPTIVE = Settings(schedule="adaptive", max_matches=60)


def places(match: PlannedMatch) -> list[int]:
    """A synthetic result: bot b has strength -b, plus noise from the match seed."""
    rng = random.Random(match.seed)
    scores = [-0.5 * bot + rng.gauss(0, 1) for bot in match.seats]
    return [1 + sum(other > score for other in scores) for score in scores]


RULE = Adaptive(max_matches=120)


def simulate(
    seed: int, pool: int = 6, players: int = 3, rule: Adaptive = RULE
) -> list[PlannedMatch]:
    """An adaptive tournament played out in-process on synthetic results."""
    rater = TrueSkillRater()
    skills = [rater.initial()] * pool
    plan = plan_matches("t", pool, players, 1, seed, matches_per_bot=players)
    block = list(plan)
    while block:
        for match in block:
            rated = rater.rate([skills[bot] for bot in match.seats], places(match))
            for bot, skill in zip(match.seats, rated, strict=True):
                skills[bot] = skill
        block = next_block("t", seed, Deals.FRESH, players, plan, skills, rule)
        plan += block
    return plan


def test_the_first_block_is_the_balanced_plan():
    settings = dataclasses.replace(ADAPTIVE, matches_per_bot=4)
    tournament, plan = new_tournament(
        "t", "jamaica", ["a", "b", "c", "d", "e", "f", "g", "h"], 4, 2, 9, settings
    )
    assert plan == plan_matches("t", 8, 4, 2, 9, matches_per_bot=4)
    assert tournament.settings["schedule"] == "adaptive"
    assert tournament.settings["max_matches"] == 60
    _, full = new_tournament("t", "jamaica", ["a", "b", "c"], 2, 1, 9, Settings())
    assert "schedule" not in Settings().to_json()  # a full tournament is stored as before
    _, default = new_tournament(
        "t", "jamaica", ["a", "b", "c"], 2, 1, 9, Settings(schedule="adaptive")
    )
    assert default == full


def test_the_default_budget_is_ten_first_blocks():
    tournament, plan = new_tournament(
        "t", "jamaica", ["a", "b", "c"], 2, 1, 9, Settings(schedule="adaptive")
    )
    assert tournament.settings["max_matches"] == 10 * len(plan) == 60


def test_a_block_is_a_function_of_the_seed_and_the_earlier_results():
    first = simulate(3)
    assert first == simulate(3)
    assert first != simulate(4)
    assert [m.ordinal for m in first] == list(range(len(first)))
    assert len({m.match_id for m in first}) == len(first)
    assert len({m.seed for m in first}) == len(first)  # fresh deals: a seed per match
    prefix = [m for m in first if m.round <= 3]
    rater = TrueSkillRater()
    skills = [rater.initial()] * 6
    for match in prefix:
        rated = rater.rate([skills[b] for b in match.seats], places(match))
        for bot, skill in zip(match.seats, rated, strict=True):
            skills[bot] = skill
    block = next_block("t", 3, Deals.FRESH, 3, prefix, skills, RULE)
    assert block == [m for m in first if m.round == 4]
    assert block[0].match_id == "t-a4-g1-s1"
    assert block[0].seed == derive_seed(3, "adaptive", 3, 0, 0)


def test_a_group_plays_its_seat_rotations_in_a_block():
    plan = simulate(5)
    for block in {m.round for m in plan} - {1}:
        matches = [m for m in plan if m.round == block]
        by_group: dict[str, list[tuple[int, ...]]] = {}
        for match in matches:
            by_group.setdefault(match.match_id.rsplit("-", 1)[0], []).append(match.seats)
        for seatings in by_group.values():
            order = seatings[0]
            assert seatings == [order[s:] + order[:s] for s in range(3)]


def test_duplicate_deals_share_a_seed_within_a_group():
    skills = [Skill(25 - i, 5) for i in range(4)]
    plan = plan_matches("t", 4, 2, 1, 1)
    block = next_block("t", 1, Deals.DUPLICATE, 2, plan, skills, Adaptive(max_matches=100))
    assert block[0].seed == block[1].seed != block[2].seed


def test_the_stop_rule_stops_on_confidence():
    certain = [Skill(40 - 10 * i, 1) for i in range(4)]
    assert stop_reason(certain, 12, 2, Adaptive()).startswith("confidence")
    assert (
        next_block("t", 1, Deals.FRESH, 2, plan_matches("t", 4, 2, 1, 1), certain, Adaptive()) == []
    )
    unsure = [Skill(25, 8) for _ in range(4)]
    assert stop_reason(unsure, 12, 2, Adaptive()) is None
    assert stop_reason(unsure, 12, 2, Adaptive(top=1)) is None
    top_known = [Skill(60, 1), Skill(25, 8), Skill(25, 8), Skill(24, 8)]
    assert stop_reason(top_known, 12, 2, Adaptive(top=1)).startswith("confidence")


def test_the_stop_rule_stops_at_the_budget():
    plan = simulate(2, rule=Adaptive(confidence=0.999999, max_matches=50))
    assert 50 - 3 < len(plan) <= 50
    unsure = [Skill(25, 8) for _ in range(4)]
    assert stop_reason(unsure, 99, 2, Adaptive(max_matches=100)).startswith("budget")


def test_blocks_play_the_least_certain_neighbours():
    skills = [Skill(40, 1), Skill(30, 1), Skill(20.5, 2), Skill(20, 2), Skill(5, 1)]
    pairs = neighbour_pairs(skills)
    assert [(p.upper, p.lower) for p in pairs] == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert min(pairs, key=lambda p: p.confidence) == pairs[2]
    groups = choose_groups(skills, 2, Adaptive(), random.Random(1), 2)
    assert groups[0] == (2, 3)
    three = choose_groups(skills, 3, Adaptive(), random.Random(1), 1)
    assert set(three[0]) >= {2, 3}


@pytest.mark.parametrize(
    ("pool", "players", "kwargs", "message"),
    [
        (
            4,
            1,
            {},
            "--schedule adaptive places seats against each other; a one-seat tournament "
            "ranks by mean margin over shared deals instead: use --schedule full",
        ),
        (
            2,
            2,
            {},
            "--schedule adaptive chooses groups of 2 among more bots: 2 bots make only "
            "one group; add a --bot or use --schedule full",
        ),
        (
            3,
            2,
            {"confidence": 1.0},
            "--confidence is a probability above 0.5 and below 1, e.g. 0.9",
        ),
        (3, 2, {"top": 4}, "--top is how many of the 3 bots must be ordered: 1 to 3"),
        (
            3,
            2,
            {"max_matches": 5},
            "--max-matches 5 is fewer than the 6 matches of the first "
            "(balanced) block; use --max-matches 6 or more",
        ),
    ],
)
def test_an_impossible_adaptive_schedule_is_refused(pool, players, kwargs, message):
    args = {"confidence": 0.9, "top": None, "max_matches": None} | kwargs
    with pytest.raises(
        ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"
    ):
        check_adaptive(pool, players, 6, **args)


@pytest.mark.parametrize(
    ("game", "players", "message"),
    [
        (
            "jamaica",
            "2",
            "--schedule adaptive chooses groups of 2 among more bots: 2 bots make "
            "only one group; add a --bot or use --schedule full",
        ),
        (
            "blackbeard",
            "1",
            "--schedule adaptive places seats against each other; a one-seat "
            "tournament ranks by mean margin over shared deals instead: use "
            "--schedule full",
        ),
    ],
)
def test_the_cli_refuses_in_one_line(tmp_path, game, players, message):
    db = tmp_path / "t.db"
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            "run",
            game,
            "--bot",
            "a.py",
            "--bot",
            "b.py",
            "--db",
            str(db),
            "--schedule",
            "adaptive",
            "--players",
            players,
        ],
    )
    assert (result.exit_code, " ".join(result.stderr.split())) == (2, f"error: {message}")
    assert not db.exists()


def test_adaptive_options_need_the_adaptive_schedule(tmp_path):
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            "run",
            "jamaica",
            "--bot",
            "a.py",
            "--bot",
            "b.py",
            "--db",
            str(tmp_path / "t.db"),
            "--max-matches",
            "10",
        ],
    )
    assert result.exit_code == 2
    assert " ".join(result.stderr.split()) == (
        "error: --confidence, --top and --max-matches are for --schedule adaptive"
    )


def test_help_explains_the_schedule():
    text = " ".join(
        CliRunner()
        .invoke(app, ["tournament", "run", "--help"], env={"COLUMNS": "200"})
        .stdout.split()
    )
    for words in (
        "--schedule",
        "adaptive",
        "first block",
        "--confidence",
        "--top",
        "--max-matches",
        "stored before it is played",
    ):
        assert words in text


ADAPTIVE_RUN = ("--schedule", "adaptive", "--max-matches", "20", "--parallel", "1", *SHORT)


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> tuple[Path, dict]:
    """The adaptive run played once through, never stopped: its database and its --json
    report. Read, never written: a test that changes it changes a copy."""
    db = tmp_path_factory.mktemp("clean") / "t.db"
    return db, run(tournament_args(db, *ADAPTIVE_RUN))


@pytest.mark.xdist_group("adaptive-run")  # one clean run for both, on one test worker
def test_a_killed_adaptive_tournament_resumes_exactly(tmp_path, clean):
    db = tmp_path / "t.db"
    killed_after(tournament_args(db, *ADAPTIVE_RUN), db, 9)  # the first block is 6
    assert 9 <= len(results(db)) < 20

    data = run(admiralty("tournament", "resume", "cup", "--db", str(db), "--json"))
    assert data["schedule"] == "adaptive" and data["stopped"]
    assert data["planned"] == data["finished"]

    clean_db, whole = clean
    plan = "SELECT match_id, ordinal, round, seed, seats FROM matches ORDER BY ordinal"
    assert rows(db, plan) == rows(clean_db, plan)
    assert len(rows(db, plan)) > 6  # blocks beyond the first were chosen
    assert results(db) == results(clean_db)
    assert [row["mu"] for row in data["standings"]] == [row["mu"] for row in whole["standings"]]


@pytest.mark.xdist_group("adaptive-run")
def test_a_run_stopped_between_blocks_derives_the_same_next_block(tmp_path, clean):
    """Killed after a block's last result and before the next block is stored: resume
    derives that block from the stored results, as the clean run did, and `tournament
    list` shows it stopped, not finished."""
    db = tmp_path / "t.db"
    with closing(sqlite3.connect(clean[0])) as source, closing(sqlite3.connect(db)) as copy:
        source.backup(copy)
    store = Store(db)
    assert [row.state for row in summaries(store)] == ["finished"]  # its stop rule stopped it
    plan = store.plan("cup")
    last = max(match.round for match in plan)
    kept = [match for match in plan if match.round < last]
    dropped = [match for match in plan if match.round == last]
    with sqlite3.connect(db) as connection:
        for match in dropped:
            connection.execute("DELETE FROM results WHERE match_id=?", (match.match_id,))
            connection.execute("DELETE FROM matches WHERE match_id=?", (match.match_id,))
    store = Store(db)
    assert store.plan("cup") == kept
    assert _block_after(store, store.tournament("cup")) == dropped
    assert [row.state for row in summaries(store)] == ["stopped"]  # resume plans more
    assert [row.state for row in store.summaries()] == ["finished"]  # as the file alone says


def test_the_leaderboard_shows_the_order_the_stop_rule_certifies(tmp_path):
    """a beat c six times, then b beat a once: b has the higher mu, a (more games, less
    sigma) the higher mu - 3 sigma. The stop rule orders by mu, so the board does too."""
    db = tmp_path / "t.db"
    store = Store(db, create=True)
    plan = [PlannedMatch(f"cup-r1-g{i}-s1", i, 1, i, (0, 2)) for i in range(6)]
    plan.append(PlannedMatch("cup-r1-g6-s1", 6, 1, 6, (1, 0)))
    settings = dataclasses.replace(ADAPTIVE, records=None, top=None, confidence=0.6)
    store.create(
        Tournament(
            "cup", "jamaica", 2, 1, 1, settings.to_json(), ("a.py", "b.py", "c.py"), ("a", "b", "c")
        ),
        plan,
        Runner.this_process(datetime.now(UTC)),
    )
    for match in plan:
        store.save_result("cup", Result(match.match_id, [1, 2], [1, 0], [], [], [[], []], 1, None))
    live = live_standings(["a", "b", "c"], plan, store.results("cup"), TrueSkillRater())
    skills = [row.skill for row in live.table]
    assert [row.bot for row in live.rows()] == ["a", "b", "c"]  # by mu - 3 sigma
    pairs = neighbour_pairs(skills)
    certified = ["abc"[pairs[0].upper]] + ["abc"[pair.lower] for pair in pairs]
    assert certified == ["b", "a", "c"]
    assert stop_reason(skills, len(plan), 2, Adaptive(0.6, None, 60)).startswith("confidence")

    shown = CliRunner().invoke(app, ["tournament", "show", "cup", "--db", str(db), "--json"])
    data = json.loads(shown.stdout)
    assert [row["bot"] for row in data["standings"]] == certified
    assert data["ranking"] == "trueskill: mu, as the adaptive stop rule orders"
    assert data["stopped"].startswith("confidence")
    table = CliRunner().invoke(
        app, ["tournament", "show", "cup", "--db", str(db)], env={"COLUMNS": "200"}
    )
    assert [line.split()[1] for line in table.stdout.splitlines()[2:5]] == certified
    assert "sorted by mu, the order the adaptive schedule's stop rule certifies" in " ".join(
        table.stdout.split()
    )
