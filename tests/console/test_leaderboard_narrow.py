"""The leaderboard on a narrow terminal: least telling columns go, ranks and numbers stay."""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.cli.tournament import stored
from admiralty.console.leaderboard import leaderboard_table
from admiralty.tournament.plan import PlannedMatch
from admiralty.tournament.ratings import make_rater
from admiralty.tournament.runner import Runner, Settings, new_tournament
from admiralty.tournament.standings import standings
from admiralty.tournament.store import Result, Store


def rows():
    plan = [PlannedMatch(f"m{i}", i, 1, i, (0, 1)) for i in range(12)]
    results = {
        f"m{i}": Result(
            f"m{i}", [1, 2] if i % 3 else [2, 1], [1234, -567], [], [], [[12.5], [1234.5]], 10, None
        )
        for i in range(12)
    }
    return standings(["greedy-bot-long-name", "random"], plan, results, make_rater("trueskill"))


def abbreviates(shown: str, name: str) -> bool:
    """`shown` is `name`, or its start and at least its last 3 characters around "…"."""
    head, cut, tail = shown.partition("…")
    return shown == name or (
        bool(cut)
        and len(tail) >= 3
        and name.startswith(head)
        and name.endswith(tail)
        and len(shown) < len(name)
    )


def explained(text: str, rows: list[dict]) -> None:
    """The legend names mu, sigma, the conservative rating, 1st and score, and says what
    the table is sorted by, as its rows are."""
    assert (
        "μ (mu) estimates a bot's skill, σ (sigma) is its uncertainty, mu-3sig is the "
        "conservative rating μ-3σ" in text
    )
    assert "1st: first places (shared ones too); score: mean score" in text
    key = re.search(r"sorted by (mu-3sig|mu)\b", text)[1]
    values = [row[{"mu-3sig": "conservative", "mu": "mu"}[key]] for row in rows]
    assert values == sorted(values, reverse=True)


def render(width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(leaderboard_table(rows(), width=width))
    return console.file.getvalue().splitlines()


def test_at_60_columns_every_rank_and_number_shown_is_whole():
    lines = render(60)
    assert max(len(line) for line in lines) <= 60
    header = lines[0].split()
    assert header[0] == "#" and "mu-3sig" in header and header[-2:] == ["crash", "broken"]
    assert "p95" not in header and "sigma" not in header and "mu" not in header
    data = [row.to_json(rank) for rank, row in enumerate(rows(), 1)]
    for row in data:
        line = next(line for line in lines if line.startswith(f"{row['rank']} "))
        words = line.split()
        assert words[0] == str(row["rank"]) and abbreviates(words[1], row["bot"])
        shown = (
            "conservative",
            "matches",
            "firsts",
            "mean_score",
            "latency_mean_ms",
            "incidents",
            "crashes",
            "broken",
        )
        assert words[2:] == [
            f"{row[key]:.1f}" if isinstance(row[key], float) else str(row[key]) for key in shown
        ]
    assert "left out to fit: mu, sigma, p95" in " ".join(line.strip() for line in lines)
    explained(" ".join(" ".join(lines).split()), data)


def test_at_120_columns_nothing_is_left_out():
    lines = render(120)
    assert lines[0].split() == [
        "#",
        "bot",
        "mu",
        "sigma",
        "mu-3sig",
        "games",
        "1st",
        "score",
        "ms",
        "p95",
        "inc",
        "crash",
        "broken",
    ]
    assert not any("left out" in line for line in lines)
    explained(
        " ".join(" ".join(lines).split()), [row.to_json(rank) for rank, row in enumerate(rows(), 1)]
    )


SPECS = (
    "example_bots/random_bot.py",
    "example_bots/random_bot.py --seed 1",
    "example_bots/jamaica_greedy.py",
)


@pytest.fixture
def adaptive_cup(tmp_path, monkeypatch) -> Path:
    """A stored adaptive tournament of three bots named by their specs, two of them the
    same file, its first block played (synthetic results) and its budget spent."""
    db = tmp_path / "t.db"
    settings = Settings(schedule="adaptive", max_matches=6, records=None)
    tournament, plan = new_tournament("cup", "jamaica", SPECS, 2, 1, 7, settings)
    store = Store(db, create=True)
    runner = Runner.this_process(datetime.now(UTC))
    store.create(tournament, plan, runner)
    for match in plan:
        store.save_result(
            "cup",
            Result(
                match.match_id,
                [1, 2] if match.seats[0] else [2, 1],
                [30, 20],
                [],
                [],
                [[5.0], [7.0]],
                40,
                None,
            ),
        )
    store.release_lease("cup", runner)
    return db


@pytest.mark.parametrize("width", [60, 120])
def test_tournament_show_names_every_bot_apart_explains_itself_and_wraps(
    adaptive_cup, monkeypatch, width
):
    """The two entries of random_bot.py keep their ends; the legend says what the table is
    sorted by (as it is) and what mu, sigma, mu-3sig, 1st and score are; the stop line
    wraps at words."""
    console = Console(width=width, file=io.StringIO(), color_system=None)
    monkeypatch.setattr(stored, "out", console)
    result = CliRunner().invoke(app, ["tournament", "show", "cup", "--db", str(adaptive_cup)])
    assert result.exit_code == 0, result.output
    lines = console.file.getvalue().splitlines()
    assert max(len(line) for line in lines) <= width
    data = json.loads(
        CliRunner()
        .invoke(app, ["tournament", "show", "cup", "--db", str(adaptive_cup), "--json"])
        .output
    )
    header = next(line for line in lines if line.startswith("# bot"))
    numbers = len(header.split()) - 2  # the columns after rank and bot
    names = [
        " ".join(
            next(line for line in lines if line.startswith(f"{row['rank']} ")).split()[1:-numbers]
        )
        for row in data["standings"]
    ]
    assert len(set(names)) == 3
    assert all(
        abbreviates(name, row["bot"]) for name, row in zip(names, data["standings"], strict=True)
    )
    text = " ".join(" ".join(lines).split())
    explained(text, data["standings"])
    stop = f"adaptive schedule, stopped by {data['stopped']}"
    assert stop in text and len(stop) > 60
    assert all(
        line.strip() in stop
        for line in lines[
            lines.index(next(line for line in lines if line.startswith("adaptive schedule"))) :
        ]
    )
