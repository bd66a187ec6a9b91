"""The tournament plan: every K-subset, every seat rotation, shared deal seeds, reproducible."""

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from admiralty.tournament import plan_matches


@pytest.mark.parametrize(
    ("pool", "players", "rounds"), [(3, 2, 1), (5, 3, 2), (6, 4, 1), (4, 4, 3)])
def test_every_subset_plays_every_rotation_each_round(pool, players, rounds):
    plan = plan_matches("t", pool, players, rounds, seed=11)
    assert len(plan) == comb(pool, players) * players * rounds
    groups = Counter(frozenset(match.seats) for match in plan)
    assert set(groups) == {frozenset(g) for g in combinations(range(pool), players)}
    assert set(groups.values()) == {players * rounds}


def test_each_bot_sits_in_each_seat_equally_often():
    plan = plan_matches("t", 5, 3, 2, seed=3)
    seats = Counter((bot, seat) for match in plan for seat, bot in enumerate(match.seats))
    assert len(set(seats.values())) == 1
    assert len(seats) == 5 * 3


def test_rotations_of_a_subset_share_the_deal_seed_and_rounds_draw_fresh_ones():
    plan = plan_matches("t", 4, 2, 2, seed=5)
    by_group = {}
    for match in plan:
        by_group.setdefault((match.round, frozenset(match.seats)), set()).add(match.seed)
    assert all(len(seeds) == 1 for seeds in by_group.values())
    seeds = [next(iter(s)) for s in by_group.values()]
    assert len(set(seeds)) == len(seeds)


def test_the_same_seed_and_pool_give_the_same_plan_and_another_seed_another():
    assert plan_matches("t", 4, 3, 2, seed=9) == plan_matches("t", 4, 3, 2, seed=9)
    assert plan_matches("t", 4, 3, 2, seed=9) != plan_matches("t", 4, 3, 2, seed=10)


def test_match_ids_are_unique_and_ordinals_follow_plan_order():
    plan = plan_matches("t", 5, 2, 3, seed=1)
    assert len({m.match_id for m in plan}) == len(plan)
    assert [m.ordinal for m in plan] == list(range(len(plan)))


def test_more_seats_than_bots_is_refused():
    with pytest.raises(ValueError, match="cannot seat 4 players from a pool of 3"):
        plan_matches("t", 3, 4, 1, seed=1)
