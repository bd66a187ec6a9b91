"""The balance of the seating and of sampled groups, measured on whole plans: every bot in
every seat equally often, every ordered "sits right after" pair as evenly as the groups
allow, every two bots in the same number of groups; the figures are the design's, pinned.

Turn order runs round the table, so "b sits right after a" means b is in the seat after
a's, the last seat followed by the first."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations, permutations

import pytest
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.tournament import Deals, PlannedMatch, Runner, Store, Tournament, plan_matches
from admiralty.tournament.plan import MAX_MATCHES, valid_matches_per_bot

SEEDS = (1, 2, 3, 4, 5)


def seat_counts(plan: list[PlannedMatch]) -> Counter:
    return Counter((bot, seat) for m in plan for seat, bot in enumerate(m.seats))


def after_counts(plan: list[PlannedMatch], pool: int) -> list[int]:
    """For every ordered pair (a, b) of bots, the matches in which b sat right after a."""
    after: Counter = Counter()
    for m in plan:
        for seat, bot in enumerate(m.seats):
            after[bot, m.seats[(seat + 1) % len(m.seats)]] += 1
    return [after[pair] for pair in permutations(range(pool), 2)]


def group_meetings(plan: list[PlannedMatch], pool: int) -> list[int]:
    """For every two bots, the groups (seat rotations counted once) they played in."""
    groups = {(m.round, m.match_id.rsplit("-s", 1)[0]): m.seats for m in plan}
    met: Counter = Counter()
    for seats in groups.values():
        met.update(frozenset(pair) for pair in combinations(seats, 2))
    return [met[frozenset(pair)] for pair in combinations(range(pool), 2)]


def spread(counts) -> tuple[int, int]:
    return min(counts), max(counts)


# (pool, seats, rounds): the ordered-neighbour counts (min, max) the plan gives. Each ordered
# pair lies in C(pool-2, seats-2) groups a round and a group's order gives its `seats` pairs
# `seats` matches each, so the ideal is seats * C(pool-2, seats-2) / (seats-1) a round,
# reached exactly when whole, else rounded both ways (e.g. 5 bots, 3 seats: 4.5 -> 3 and 6).
ROUND_ROBIN = [
    (6, 4, 1, (8, 8)),  # the issue's case: all 30 ordered pairs, 8 matches each
    (6, 4, 3, (24, 24)),
    (5, 3, 1, (3, 6)),
    (5, 3, 2, (9, 9)),
    (4, 4, 6, (8, 8)),
    (8, 2, 1, (2, 2)),
    (8, 3, 1, (9, 9)),
    (6, 3, 1, (6, 6)),
    (5, 4, 3, (12, 12)),
    (6, 5, 4, (20, 20)),
    (7, 5, 1, (10, 15)),
    (10, 4, 1, (36, 40)),
]


@pytest.mark.parametrize(("pool", "players", "rounds", "after"), ROUND_ROBIN)
def test_a_round_robin_seats_every_bot_everywhere_and_next_to_everyone_evenly(
    pool, players, rounds, after
):
    ideal = players * math.comb(pool - 2, players - 2) * rounds / (players - 1)
    assert after[0] == players * math.floor(ideal / players)
    assert after[1] == players * math.ceil(ideal / players)
    for seed in SEEDS:
        plan = plan_matches("t", pool, players, rounds, seed)
        assert len(plan) == math.comb(pool, players) * players * rounds  # as before
        seats = seat_counts(plan)
        assert len(seats) == pool * players
        assert set(seats.values()) == {math.comb(pool - 1, players - 1) * rounds}
        assert spread(after_counts(plan, pool)) == after
        assert set(group_meetings(plan, pool)) == {math.comb(pool - 2, players - 2) * rounds}


def test_the_issue_six_bots_four_seats_no_longer_follow_the_bot_order():
    plan = plan_matches("t", 6, 4, 1, seed=7)
    shared = [m for m in plan if 0 in m.seats and 1 in m.seats]
    after_0 = Counter(m.seats[(m.seats.index(0) + 1) % 4] for m in shared)
    assert len(shared) == 24
    assert after_0[1] == 8  # was 24: bot 1 always sat right after bot 0
    assert all(count > 0 for count in after_counts(plan, 6))  # 12 of 30 pairs never met


def test_where_the_search_stops_short_of_the_ideal_almost_every_pair_has_it():
    """9 bots, 4 seats: the ideal is 28 matches per ordered pair (7 groups); the bounded
    search leaves 3 of the 72 pairs one group above and 3 one below."""
    for seed in (1, 2):
        counts = Counter(after_counts(plan_matches("t", 9, 4, 1, seed), 9))
        assert counts[28] >= 66 and set(counts) <= {24, 28, 32}


@pytest.mark.parametrize(("players", "rounds", "after"), [(4, 3, (0, 8)), (6, 5, (0, 12))])
def test_one_group_of_four_or_six_cannot_meet_each_neighbour_once_in_k_minus_1_rounds(
    players, rounds, after
):
    """K-1 cyclic orders with every ordered pair once would split the complete directed
    graph into Hamiltonian cycles, which does not exist for 4 and 6 vertices (Tillson,
    1980); so one pair is missed and another doubled. Twice the rounds even it out for 4."""
    for seed in SEEDS:
        plan = plan_matches("t", players, players, rounds, seed)
        assert spread(after_counts(plan, players)) == after
        assert set(seat_counts(plan).values()) == {rounds}
    assert spread(after_counts(plan_matches("t", 4, 4, 6, seed=1), 4)) == (8, 8)


# (pool, seats, matches per bot, rounds): the spread of group meetings the plan gives, seed 1,
# and the most any seed of SEEDS gives.
SAMPLED = [
    (10, 4, 8, 3, (1, 3), 2),
    (7, 4, 16, 1, (2, 2), 0),
    (20, 6, 18, 2, (0, 3), 3),
    (12, 3, 6, 1, (0, 1), 1),
    (9, 3, 9, 4, (3, 3), 2),
]


@pytest.mark.parametrize(("pool", "players", "per_bot", "rounds", "met", "worst"), SAMPLED)
def test_sampled_groups_give_every_bot_the_same_matches_and_seats(
    pool, players, per_bot, rounds, met, worst
):
    for seed in SEEDS:
        plan = plan_matches("t", pool, players, rounds, seed, matches_per_bot=per_bot)
        assert len(plan) == per_bot * pool // players * rounds
        assert set(Counter(b for m in plan for b in m.seats).values()) == {per_bot * rounds}
        seats = seat_counts(plan)
        assert len(seats) == pool * players
        assert set(seats.values()) == {per_bot // players * rounds}
        low, high = spread(group_meetings(plan, pool))
        assert high - low <= worst
        if seed == 1:
            assert (low, high) == met
        ideal = per_bot // players * (players - 1) * rounds / (pool - 1)  # per pair
        assert low <= ideal <= high


def test_sampled_groups_spread_each_bots_successors():
    """With 10 bots of 4 seats and 8 matches a round, each bot has 2 groups a round, so 2
    successors: over 9 rounds 18, ideally 2 per other bot. Sampled groups are not a
    complete design, so the measure is: every bot follows every other in 1 to 3 groups,
    most in exactly 2."""
    for seed in SEEDS:
        plan = plan_matches("t", 10, 4, 9, seed=seed, matches_per_bot=8)
        groups = Counter(count // 4 for count in after_counts(plan, 10))
        assert set(groups) == {1, 2, 3}
        assert groups[2] >= 60  # of 90 ordered pairs
    assert Counter(
        c // 4 for c in after_counts(plan_matches("t", 10, 4, 9, seed=1, matches_per_bot=8), 10)
    ) == {2: 66, 3: 12, 1: 12}


def test_a_large_field_is_planned_in_the_asked_size_and_quickly():
    plan = plan_matches("t", 20, 6, 1, seed=3, matches_per_bot=18)
    assert len(plan) == 60  # instead of 232,560


@pytest.mark.parametrize("sampled", [None, 8])
def test_plans_are_deterministic_in_the_seed_with_unique_ids(sampled):
    plan = plan_matches("t", 10, 4, 2, seed=9, matches_per_bot=sampled)
    assert plan == plan_matches("t", 10, 4, 2, seed=9, matches_per_bot=sampled)
    assert plan != plan_matches("t", 10, 4, 2, seed=10, matches_per_bot=sampled)
    assert len({m.match_id for m in plan}) == len(plan)
    assert [m.ordinal for m in plan] == list(range(len(plan)))
    assert len({m.seed for m in plan}) == len(plan)


def test_duplicate_deals_share_a_seed_per_sampled_group_and_round():
    plan = plan_matches("t", 10, 4, 2, seed=9, deals=Deals.DUPLICATE, matches_per_bot=8)
    by_group: dict = {}
    for m in plan:
        by_group.setdefault(m.match_id.rsplit("-s", 1)[0], []).append(m)
    assert len(by_group) == 5 * 2
    for matches in by_group.values():
        assert len({m.seed for m in matches}) == 1
        assert len({frozenset(m.seats) for m in matches}) == 1
        assert sorted(m.seats.index(matches[0].seats[0]) for m in matches) == [0, 1, 2, 3]
    assert len({m.seed for m in plan}) == 10


def test_a_sampled_plan_comes_back_from_the_store_exactly(tmp_path):
    plan = plan_matches("cup", 10, 4, 2, seed=2**130 + 1, matches_per_bot=8)
    store = Store(tmp_path / "t.db", create=True)
    tournament = Tournament(
        "cup",
        "jamaica",
        4,
        2,
        2**130 + 1,
        {"matches_per_bot": 8},
        tuple(f"b{i}.py" for i in range(10)),
        (None,) * 10,
    )
    store.create(tournament, plan, Runner(1, "h", "2030-01-01T10:00:00+00:00"))
    assert store.plan("cup") == plan


@pytest.mark.parametrize(
    ("pool", "players", "per_bot", "message"),
    [
        (
            7,
            4,
            5,
            "--matches-per-bot 5 with 7 bots and 4 seats cannot give every bot the same "
            "count (each group plays its 4 seat rotations, so it must be a multiple of 4 "
            "and times 7 a multiple of 16); try 16",
        ),
        (
            10,
            4,
            12,
            "--matches-per-bot 12 with 10 bots and 4 seats cannot give every bot the "
            "same count (each group plays its 4 seat rotations, so it must be a multiple "
            "of 4 and times 10 a multiple of 16); try 8 or 16",
        ),
        (
            4,
            1,
            2,
            "--matches-per-bot samples groups of several seats; a one-seat round is one "
            "deal for every bot: use --rounds instead",
        ),
        (3, 4, 8, "cannot seat 4 players from a pool of 3 bots; add 1 --bot or use --players 3"),
    ],
)
def test_an_impossible_design_says_what_would_work(pool, players, per_bot, message):
    with pytest.raises(ValueError) as error:
        plan_matches("t", pool, players, 1, seed=1, matches_per_bot=per_bot)
    assert str(error.value) == message


@pytest.mark.parametrize(("pool", "players"), [(7, 4), (10, 4), (20, 6), (12, 3), (9, 3)])
def test_the_suggested_matches_per_bot_all_work(pool, players):
    suggested = valid_matches_per_bot(pool, players, 40)
    assert suggested[0] == players * players // math.gcd(players, pool)
    for per_bot in suggested:
        assert len(plan_matches("t", pool, players, 1, 1, matches_per_bot=per_bot)) == (
            per_bot * pool // players
        )
    assert all(
        n not in suggested and n % players == 0
        for n in range(players, 41, players)
        if (n * pool) % (players * players)
    )


def test_a_round_robin_too_big_to_play_points_to_matches_per_bot():
    with pytest.raises(ValueError) as error:
        plan_matches("t", 20, 6, 1, seed=1)
    assert str(error.value) == (
        f"a round of every 6-bot group of 20 bots is 232560 matches, 232560 in 1 round(s), "
        f"more than {MAX_MATCHES}; sample groups with --matches-per-bot (e.g. 18)"
    )
    plan_matches("t", 20, 6, 1, seed=1, matches_per_bot=18)


def test_the_cli_refuses_a_bad_matches_per_bot_in_one_line(tmp_path):
    bots = [arg for i in range(7) for arg in ("--bot", f"b{i}.py")]
    db = tmp_path / "t.db"
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            "run",
            "jamaica",
            "--players",
            "4",
            "--matches-per-bot",
            "5",
            "--db",
            str(db),
            *bots,
        ],
    )
    assert result.exit_code == 2
    assert " ".join(result.stderr.split()).startswith(
        "error: --matches-per-bot 5 with 7 bots and 4 seats cannot give every bot"
    )
    assert " ".join(result.stderr.split()).endswith("try 16")
    assert not db.exists()
