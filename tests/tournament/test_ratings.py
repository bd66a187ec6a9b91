"""Ratings from placements, ties included, computed in plan order."""

import math

import pytest

from admiralty.tournament import PlannedMatch, Result, Skill, make_rater, standings
from admiralty.tournament.ratings import rater_of
from admiralty.tournament.runner import Settings
from admiralty.tournament.standings import LiveStandings


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


# OpenSkill with shared places, and incremental ratings


def test_openskill_without_ties_is_the_librarys_plackett_luce():
    import random

    from openskill.models import PlackettLuce

    model, rater, rng = PlackettLuce(), make_rater("openskill"), random.Random(7)
    for _ in range(100):
        n = rng.randint(2, 6)
        skills = [Skill(rng.uniform(10, 40), rng.uniform(1, 9)) for _ in range(n)]
        places = rng.sample(range(1, n + 1), n)
        ours = rater.rate(skills, places)
        theirs = model.rate([[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills], ranks=places)
        for mine, [lib] in zip(ours, theirs, strict=True):
            assert mine.mu == pytest.approx(lib.mu, abs=1e-9)
            assert mine.sigma == pytest.approx(lib.sigma, abs=1e-9)


def test_openskill_places_1_2_2_2_5_6_by_hand():
    """From equal ratings (mu 25, sigma 25/3; beta 25/6, tau 25/300): with v = sigma² + tau²
    and c² = 6 (v + beta²), e_s all equal, so a seat's omega is 1 - 1/|pool| minus 1/|pool|
    of every seat above: 1st 1 - 1/6; the tied 2nds (pool: itself, 5th, 6th) -1/6 + 2/3;
    the 5th -1/6 - 3·1/3 + 1/2; the 6th -1/6 - 3·1/3 - 1/2. mu' = mu + v/c · omega."""
    rater = make_rater("openskill")
    v = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(6 * (v + (25 / 6) ** 2))
    rated = rater.rate([rater.initial()] * 6, [1, 2, 2, 2, 5, 6])
    omegas = [5 / 6, 1 / 2, 1 / 2, 1 / 2, -2 / 3, -5 / 3]
    assert [s.mu for s in rated] == pytest.approx([25 + v / c * w for w in omegas], abs=1e-12)
    assert rated[1] == rated[2] == rated[3]  # identical updates for the tied seats
    assert rated[0].mu > rated[1].mu > rated[4].mu > rated[5].mu
    # sigma: delta = gamma v/c² Σ p(1-p), gamma = sqrt(v)/c; the tied 2nds: p = 1/6 and 1/3
    delta = math.sqrt(v) / c * v / c**2 * (1 / 6 * 5 / 6 + 1 / 3 * 2 / 3)
    assert rated[1].sigma == pytest.approx(math.sqrt(v) * math.sqrt(1 - delta), abs=1e-12)


def test_the_librarys_own_tie_rule_is_what_this_fixes():
    """Recorded so an upgrade that fixes the library shows here: openskill 6.x rates the 5th
    of [1, 2, 2, 2, 5, 6] above the tied 2nds when everyone started equal."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in range(6)], ranks=[1, 2, 2, 2, 5, 6])
    ours = make_rater("openskill").rate([make_rater("openskill").initial()] * 6, [1, 2, 2, 2, 5, 6])
    assert ours[4].mu < ours[1].mu
    if rated[4][0].mu > rated[1][0].mu:  # the library's behaviour, as of 6.2
        assert ours[4].mu != pytest.approx(rated[4][0].mu)


@pytest.mark.parametrize("system", ["trueskill", "openskill"])
@pytest.mark.parametrize("places", [[1, 1, 1], [2, 1, 1, 3], [1, 2, 2, 2, 5, 6], [3, 3, 1, 1]])
def test_tied_seats_starting_equal_end_equal_and_no_worse_place_ends_above(system, places):
    rater = make_rater(system)
    rated = rater.rate([rater.initial()] * len(places), places)
    close = 1e-12 if system == "openskill" else 0.01  # TrueSkill approximates draws
    for i, a in enumerate(places):
        for j, b in enumerate(places):
            if a == b:
                assert rated[i].mu == pytest.approx(rated[j].mu, abs=close)
            elif a < b:
                assert rated[i].mu > rated[j].mu


class CountingRater:
    """A rater that counts its calls."""

    def __init__(self, inner):
        self.inner, self.name, self.calls = inner, inner.name, 0

    def initial(self):
        return self.inner.initial()

    def rate(self, skills, places):
        self.calls += 1
        return self.inner.rate(skills, places)


def many(count: int, seed: int = 1):
    import random

    rng = random.Random(seed)
    plan = [
        PlannedMatch(f"m{i}", i, 1 + i // 12, 0, tuple(rng.sample(range(5), 3)))
        for i in range(count)
    ]
    results = {
        m.match_id: result(m.match_id, [rng.choice([1, 2, 3]) for _ in range(3)]) for m in plan
    }
    return plan, results


@pytest.mark.parametrize("system", ["trueskill", "openskill"])
def test_incremental_ratings_out_of_plan_order_equal_a_recompute_bit_for_bit(system):
    import random

    plan, results = many(120)
    bots = ["a", "b", "c", "d", "e"]
    arrival = list(results.values())
    random.Random(5).shuffle(arrival)
    live = LiveStandings(bots, plan, make_rater(system))
    for k, one in enumerate(arrival, start=1):
        live.add(one)
        assert sum(row.matches for row in live.table) == 3 * k  # totals count at once
    scratch = standings(bots, plan, results, make_rater(system))
    assert [(r.bot, r.skill.mu, r.skill.sigma) for r in live.rows()] == [
        (r.bot, r.skill.mu, r.skill.sigma) for r in scratch
    ]
    assert live.pending == 0 and live.updates == len(plan)


def test_a_result_waits_for_the_matches_planned_before_it():
    plan, results = many(3)
    live = LiveStandings(["a", "b", "c", "d", "e"], plan, make_rater("trueskill"))
    live.add(results["m2"])
    live.add(results["m1"])
    assert (live.updates, live.pending) == (0, 2)
    live.add(results["m0"])
    assert (live.updates, live.pending) == (3, 0)
    with pytest.raises(ValueError, match="added twice"):
        live.add(results["m1"])


def test_the_rating_updates_per_result_do_not_grow_with_the_results_before_it():
    plan, results = many(400)
    counting = CountingRater(make_rater("trueskill"))
    live = LiveStandings(["a", "b", "c", "d", "e"], plan, counting)
    per_result = []
    for match in plan:
        before = counting.calls
        live.add(results[match.match_id])
        per_result.append(counting.calls - before)
    assert set(per_result) == {1}  # the 1st result and the 400th: one update each


# Skill drift (tau): none for bots


def test_trueskill_with_no_drift_is_the_librarys_bit_for_bit():
    import trueskill

    env = trueskill.TrueSkill(tau=0, draw_probability=0.05)
    ours = make_rater("trueskill", 0.0)
    a, b, c = ours.initial(), ours.initial(), ours.initial()
    x, y, z = env.create_rating(), env.create_rating(), env.create_rating()
    for places in ([1, 2, 3], [2, 1, 2], [3, 1, 2]) * 5:
        a, b, c = ours.rate([a, b, c], places)
        (x,), (y,), (z,) = env.rate([(x,), (y,), (z,)], ranks=[p - 1 for p in places])
    assert [(s.mu, s.sigma) for s in (a, b, c)] == [(r.mu, r.sigma) for r in (x, y, z)]


def test_with_no_drift_every_result_weighs_alike_however_late():
    """A wins two matches in three over 970 matches, then loses 30: with the libraries'
    drift the last 30 put B first; with none, A's record (647 wins to 353) does."""

    def final(tau: float | None) -> tuple[float, float]:
        rater = make_rater("trueskill", tau)
        a = b = rater.initial()
        for number in range(1000):
            a, b = rater.rate([a, b], [1, 2] if number < 970 and number % 3 else [2, 1])
        return a.mu, b.mu

    drifting, static = final(None), final(0.0)
    assert drifting[0] < drifting[1] and static[0] > static[1]


def test_a_stored_tournament_rates_with_its_own_drift():
    """New tournaments store tau (0 by default); one stored before tau was a setting keeps
    the library's drift, so its standings do not change on `show`."""
    old = rater_of({"rating": "trueskill"})
    new = rater_of(Settings().to_json())
    assert Settings().to_json()["tau"] == 0.0
    places = [[1, 2], [1, 2], [2, 1]]
    assert rate_all(old, places) == rate_all(make_rater("trueskill"), places)
    assert rate_all(new, places) == rate_all(make_rater("trueskill", 0.0), places)
    assert rate_all(old, places) != rate_all(new, places)


@pytest.mark.parametrize("tau", [-0.1, math.inf, math.nan])
def test_a_negative_or_endless_drift_is_refused(tau):
    with pytest.raises(ValueError, match="--tau must be 0 or more"):
        make_rater("trueskill", tau)


def rate_all(rater, places_of_matches):
    skills = [rater.initial(), rater.initial()]
    for places in places_of_matches:
        skills = rater.rate(skills, places)
    return skills
