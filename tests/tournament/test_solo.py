"""One-seat tournaments without processes: the plan shares each round's deal among all
bots, and the leaderboard ranks by mean margin with a t-interval, a paired gap and the
win rate, worked out here by hand on known margins."""

from __future__ import annotations

import io
import math
import statistics

import pytest
import solo_toy
from rich.console import Console

from admiralty.console.leaderboard import leaderboard_table
from admiralty.tournament import (
    Deals,
    Interval,
    PlannedMatch,
    Settings,
    derive_seed,
    new_tournament,
    plan_matches,
    solo_standings,
)
from admiralty.tournament.solo import t_quantile
from admiralty.tournament.store import Result

# t(0.975, df) from any printed table of Student's t
T_TABLE = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    9: 2.262,
    19: 2.093,
    29: 2.045,
    60: 2.000,
    120: 1.980,
}


@pytest.mark.parametrize("deals", list(Deals))
def test_one_seat_plays_every_bot_on_the_same_deal_each_round(deals):
    plan = plan_matches("t", 4, 1, 3, seed=9, deals=deals)
    assert len(plan) == 4 * 3
    for round_ in (1, 2, 3):
        matches = [m for m in plan if m.round == round_]
        assert sorted(m.seats for m in matches) == [(0,), (1,), (2,), (3,)]
        assert {m.seed for m in matches} == {derive_seed(9, round_ - 1)}
    assert len({m.seed for m in plan}) == 3  # each round its own deal
    assert len({m.match_id for m in plan}) == len(plan)


def test_more_seats_are_planned_as_before():
    fresh = plan_matches("t", 4, 2, 1, seed=5)
    assert len({m.seed for m in fresh}) == len(fresh)
    assert fresh[0].seed == derive_seed(5, 0, 0, 0)
    duplicate = plan_matches("t", 4, 2, 1, seed=5, deals=Deals.DUPLICATE)
    assert duplicate[0].seed == duplicate[1].seed == derive_seed(5, 0, 0)


def test_t_quantiles_match_the_table():
    for df, value in T_TABLE.items():
        assert t_quantile(df) == pytest.approx(value, abs=5e-4)
    assert t_quantile(100_000) == pytest.approx(statistics.NormalDist().inv_cdf(0.975), abs=1e-4)
    with pytest.raises(ValueError):
        t_quantile(0)


def test_the_interval_of_known_margins():
    # mean 3, s = sqrt(10/4) = 1.5811, s/sqrt(5) = 0.7071, t(0.975, 4) = 2.7764
    interval = Interval.of([1, 2, 3, 4, 5])
    assert interval.mean == 3
    assert interval.low == pytest.approx(3 - 2.7764 * math.sqrt(0.5), abs=1e-3)
    assert interval.high == pytest.approx(3 + 1.9632, abs=1e-3)
    # mean 0.5, s = sqrt(((-3.5)^2 + 3.5^2) / 1) = 4.95, t(0.975, 1) = 12.706
    pair = Interval.of([-3, 4])
    assert (pair.low, pair.high) == pytest.approx(
        (0.5 - 12.706 * 3.5, 0.5 + 12.706 * 3.5), abs=1e-2
    )
    single = Interval.of([7])
    assert (single.mean, single.low, single.high, single.n) == (7, None, None, 1)


def result(
    match: PlannedMatch, margin: int, forfeited: bool = False, incidents: list[dict] | None = None
) -> Result:
    return Result(
        match.match_id,
        [1],
        [margin],
        [0] if forfeited else [],
        incidents or [],
        [[2.0, 4.0]],
        3,
        None,
    )


MARGINS = {  # bot -> margin per round (deal)
    "steady": [2, 3, 1, 2],
    "lucky": [9, -4, 0, -3],
    "weak": [1, 2, 0, 1],
}


def board(margins: dict[str, list[int]] = MARGINS, forfeit: tuple[str, int] | None = None):
    bots = list(margins)
    plan = plan_matches("t", len(bots), 1, 4, seed=1)
    results = {
        m.match_id: result(
            m, margins[bots[m.seats[0]]][m.round - 1], forfeit == (bots[m.seats[0]], m.round)
        )
        for m in plan
    }
    return solo_standings(bots, plan, results)


def test_bots_are_ranked_by_mean_margin_with_interval_win_rate_and_paired_gap():
    rows = board()
    assert [row.bot for row in rows] == ["steady", "weak", "lucky"]  # 2, 1, 0.5
    steady, weak, lucky = (row.to_json(rank) for rank, row in enumerate(rows, start=1))
    # steady: mean 2, s = sqrt(2/3) = 0.8165, s/2 = 0.4082, t(0.975, 3) = 3.1824
    assert steady["mean_margin"] == 2.0
    assert steady["margin_low"] == pytest.approx(2 - 3.1824 * 0.4082, abs=2e-3)
    assert steady["margin_high"] == pytest.approx(2 + 1.2991, abs=2e-3)
    assert (steady["matches"], steady["wins"], steady["win_rate"]) == (4, 4, 1.0)
    assert steady["vs_above"] is None
    # weak - steady per deal: -1, -1, -1, -1: a certain gap, an interval of width 0
    assert weak["vs_above"] == {"bot": "steady", "mean": -1.0, "low": -1.0, "high": -1.0, "n": 4}
    # lucky - weak per deal: 8, -6, 0, -4: mean -0.5, s = sqrt(115/3) = 6.1914
    gap = lucky["vs_above"]
    assert gap["mean"] == -0.5 and gap["bot"] == "weak"
    assert gap["high"] == pytest.approx(-0.5 + 3.1824 * 6.1914 / 2, abs=2e-3)  # 9.352
    assert (lucky["wins"], lucky["win_rate"]) == (2, 0.5)  # a margin of 0 beats the Crown
    assert steady["latency_mean_ms"] == 3.0


def test_a_forfeited_seat_loses_whatever_its_margin_but_its_margin_counts():
    rows = {row.bot: row.to_json(1) for row in board(forfeit=("steady", 2))}
    assert (rows["steady"]["wins"], rows["steady"]["mean_margin"]) == (3, 2.0)


def test_bots_without_results_come_last_and_gaps_use_shared_deals_only():
    bots = ["a", "b", "c"]
    plan = plan_matches("t", 3, 1, 3, seed=1)
    margins = {"a": [5, 1, None], "b": [None, 4, 2], "c": [None, None, None]}
    results = {
        m.match_id: result(m, margin)
        for m in plan
        if (margin := margins[bots[m.seats[0]]][m.round - 1]) is not None
    }
    rows = solo_standings(bots, plan, results)
    assert [row.bot for row in rows] == ["a", "b", "c"]  # 3, 3: a wins more (2 to 2) by name
    assert rows[1].to_json(2)["vs_above"] == {
        "bot": "a",
        "mean": 3.0,
        "low": None,
        "high": None,
        "n": 1,
    }  # deal 2 only
    last = rows[2].to_json(3)
    assert (last["matches"], last["mean_margin"], last["win_rate"], last["vs_above"]) == (
        0,
        None,
        None,
        None,
    )


def test_the_table_shows_margins_and_says_trueskill_does_not_apply():
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(leaderboard_table(board(), title="cup · solo"))
    text = console.file.getvalue()
    assert all(len(line) <= 80 for line in text.splitlines())
    for expected in (
        "margin",
        "95% CI",
        "vs above",
        "won",
        "+2.0",
        "+0.7..+3.3",
        "100%",
        "-1.0 (-1.0..-1.0)",
        "TrueSkill does not apply",
    ):
        assert expected in text, expected
    assert "mu-3sig" not in text


def test_a_one_seat_tournament_is_always_dealt_duplicate(monkeypatch):
    solo_toy.register(monkeypatch.setitem)
    tournament, plan = new_tournament("cup", "solo_toy", ["a.py", "b.py"], None, 2, 3, Settings())
    assert tournament.players == 1 and tournament.settings["deals"] == "duplicate"
    assert len(plan) == 4 and len({m.seed for m in plan}) == 2
    assert tournament.settings["options"] == {"level": "standard"}
    _, jamaica = new_tournament("cup", "jamaica", ["a.py", "b.py"], None, 1, 3, Settings())
    assert len({m.seed for m in jamaica}) == 2  # several seats: still fresh by default
