"""The tournament plan: every K-subset, the seat rotations of one cyclic order per subset
and round, fresh or duplicate deals, 128-bit seeds, reproducible. (The balance of the
orders and of sampled groups is measured in test_plan_balance.py.)"""

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from admiralty.tournament import Deals, derive_seed, plan_matches


@pytest.mark.parametrize(
    ("pool", "players", "rounds"), [(3, 2, 1), (5, 3, 2), (6, 4, 1), (4, 4, 3)]
)
def test_every_subset_plays_every_rotation_each_round(pool, players, rounds):
    plan = plan_matches("t", pool, players, rounds, seed=11)
    assert len(plan) == comb(pool, players) * players * rounds
    groups = Counter(frozenset(match.seats) for match in plan)
    assert set(groups) == {frozenset(g) for g in combinations(range(pool), players)}
    assert set(groups.values()) == {players * rounds}


@pytest.mark.parametrize(("pool", "players"), [(3, 2), (5, 3), (6, 4), (7, 6)])
def test_a_subset_plays_the_rotations_of_one_cyclic_order_not_the_sorted_one(pool, players):
    """The seats of a group are no longer the sorted subset's rotations: one cyclic order
    per subset and round, chosen for the balance of neighbours, played in every rotation."""
    plan = plan_matches("t", pool, players, 2, seed=4)
    groups: dict = {}
    for match in plan:
        groups.setdefault(match.match_id.rsplit("-s", 1)[0], []).append(match.seats)
    orders = set()
    for seatings in groups.values():
        first = seatings[0]
        assert seatings == [first[s:] + first[:s] for s in range(players)]
        orders.add(first)
    if players > 2:
        assert any(order != tuple(sorted(order)) for order in orders)


def test_each_bot_sits_in_each_seat_equally_often():
    plan = plan_matches("t", 5, 3, 2, seed=3)
    seats = Counter((bot, seat) for match in plan for seat, bot in enumerate(match.seats))
    assert len(set(seats.values())) == 1
    assert len(seats) == 5 * 3


def test_fresh_deals_give_every_match_its_own_seed():
    plan = plan_matches("t", 4, 3, 2, seed=5)
    assert len({match.seed for match in plan}) == len(plan)


def test_duplicate_deals_share_a_seed_per_subset_and_round_only():
    plan = plan_matches("t", 4, 2, 2, seed=5, deals=Deals.DUPLICATE)
    by_group: dict = {}
    for match in plan:
        by_group.setdefault((match.round, frozenset(match.seats)), set()).add(match.seed)
    assert all(len(seeds) == 1 for seeds in by_group.values())
    seeds = [next(iter(s)) for s in by_group.values()]
    assert len(set(seeds)) == len(seeds) == 6 * 2


def test_the_deals_change_the_seeds_but_not_the_seatings():
    fresh = plan_matches("t", 4, 3, 1, seed=5)
    duplicate = plan_matches("t", 4, 3, 1, seed=5, deals=Deals.DUPLICATE)
    assert [(m.match_id, m.seats) for m in fresh] == [(m.match_id, m.seats) for m in duplicate]
    assert {m.seed for m in fresh} != {m.seed for m in duplicate}


def test_seeds_are_128_bit_and_do_not_contain_the_master_seed():
    master = 2**200 + 12345
    plan = plan_matches("t", 4, 2, 3, seed=master)
    assert all(0 <= m.seed < 2**128 for m in plan)
    assert max(m.seed for m in plan).bit_length() > 120  # the top bits are used too
    assert derive_seed(master, 0, 0) == derive_seed(master, 0, 0)
    assert derive_seed(master, 0, 0) != derive_seed(master + 1, 0, 0)


def test_the_same_seed_and_pool_give_the_same_plan_and_another_seed_another():
    assert plan_matches("t", 4, 3, 2, seed=9) == plan_matches("t", 4, 3, 2, seed=9)
    assert plan_matches("t", 4, 3, 2, seed=9) != plan_matches("t", 4, 3, 2, seed=10)


def test_match_ids_are_unique_and_ordinals_follow_plan_order():
    plan = plan_matches("t", 5, 2, 3, seed=1)
    assert len({m.match_id for m in plan}) == len(plan)
    assert [m.ordinal for m in plan] == list(range(len(plan)))


def test_more_seats_than_bots_is_refused():
    with pytest.raises(
        ValueError,
        match="cannot seat 4 players from a pool of 3 bots; add 1 --bot or use --players 3",
    ):
        plan_matches("t", 3, 4, 1, seed=1)
