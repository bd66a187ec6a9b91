"""The leaderboard on a narrow terminal: least telling columns go, ranks and numbers stay."""

from __future__ import annotations

import io

from rich.console import Console

from admiralty.console.leaderboard import leaderboard_table
from admiralty.tournament.plan import PlannedMatch
from admiralty.tournament.ratings import make_rater
from admiralty.tournament.standings import standings
from admiralty.tournament.store import Result


def rows():
    plan = [PlannedMatch(f"m{i}", i, 1, i, (0, 1)) for i in range(12)]
    results = {f"m{i}": Result(f"m{i}", [1, 2] if i % 3 else [2, 1], [1234, -567], [], [],
                               [[12.5], [1234.5]], 10, None) for i in range(12)}
    return standings(["greedy-bot-long-name", "random"], plan, results, make_rater("trueskill"))


def render(width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(leaderboard_table(rows(), width=width))
    return console.file.getvalue().splitlines()


def test_at_60_columns_every_rank_and_number_shown_is_whole():
    lines = render(60)
    assert max(len(line) for line in lines) <= 60
    header = lines[0].split()
    assert header[0] == "#" and "mu-3sig" in header and "crash" in header
    assert "p95" not in header and "sigma" not in header
    data = [row.to_json(rank) for rank, row in enumerate(rows(), 1)]
    for row in data:
        line = next(line for line in lines if line.startswith(f"{row['rank']} "))
        words = line.split()
        assert words[0] == str(row["rank"]) and words[1].startswith(row["bot"][:6])
        shown = ("mu", "conservative", "matches", "firsts", "mean_score", "latency_mean_ms",
                 "incidents", "crashes")
        assert words[2:] == [f"{row[key]:.1f}" if isinstance(row[key], float)
                             else str(row[key]) for key in shown]
    assert "left out to fit: sigma, p95" in " ".join(line.strip() for line in lines)


def test_at_120_columns_nothing_is_left_out():
    lines = render(120)
    assert lines[0].split() == ["#", "bot", "mu", "sigma", "mu-3sig", "games", "1st", "score",
                                "ms", "p95", "inc", "crash"]
    assert not any("left out" in line for line in lines)
