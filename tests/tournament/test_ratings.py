"""Ratings from placements, ties included, computed in plan order."""

import pytest

from admiralty.tournament import PlannedMatch, Result, make_rater, standings


def result(match_id, places, scores=None):
    scores = scores or [10 - p for p in places]
    return Result(match_id, places, scores, [], [], [[1.0] for _ in places], 10, None)


def test_trueskill_orders_a_consistent_winner_first_and_a_tie_in_between():
    plan = [PlannedMatch(f"m{i}", i, 1, 0, (0, 1, 2)) for i in range(12)]
    results = {m.match_id: result(m.match_id, [1, 2, 2]) for m in plan}
    rows = standings(["ace", "mid-a", "mid-b"], plan, results, make_rater("trueskill"))
    assert rows[0].bot == "ace"
    ace, a, b = rows[0], *sorted(rows[1:], key=lambda r: r.bot)
    assert ace.skill.mu > a.skill.mu
    assert a.skill.mu == pytest.approx(b.skill.mu, abs=1e-3)  # a shared place is a draw
    assert ace.firsts == 12 and a.firsts == 0
    assert ace.matches == 12


def test_a_draw_moves_ratings_towards_each_other():
    rater = make_rater("trueskill")
    strong, weak = rater.rate([rater.initial(), rater.initial()], [1, 2])
    after = rater.rate([strong, weak], [1, 1])
    assert after[0].mu < strong.mu and after[1].mu > weak.mu


def test_standings_ignore_order_of_completion_only_plan_order_counts():
    plan = [PlannedMatch(f"m{i}", i, 1, 0, (i % 2, 1 - i % 2)) for i in range(6)]
    places = {f"m{i}": [1, 2] if i % 3 else [2, 1] for i in range(6)}
    forward = {k: result(k, v) for k, v in places.items()}
    backward = {k: forward[k] for k in reversed(list(forward))}
    a = standings(["x", "y"], plan, forward, make_rater("trueskill"))
    b = standings(["x", "y"], plan, backward, make_rater("trueskill"))
    assert [(r.bot, r.skill) for r in a] == [(r.bot, r.skill) for r in b]


def test_unknown_rating_system_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown rating system 'elo'"):
        make_rater("elo")


@pytest.mark.parametrize("system", ["trueskill", "openskill"])
def test_both_rating_systems_rank_a_winner_first_and_treat_a_shared_place_alike(system):
    rater = make_rater(system)
    first, second, third = rater.rate([rater.initial()] * 3, [1, 2, 2])
    assert first.mu > second.mu
    assert second.mu == pytest.approx(third.mu, abs=0.01)  # TrueSkill approximates draws
