"""The ladder on bots of this process: it ranks bots of known strength, gives every bot
games and every seat in turn, meets close ratings, is reproducible from its seed, and
voids what does not finish."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter

import pytest
from local_lobby import LocalEntrant, LocalLobby, example, registered

from admiralty.arena.ladder import Ladder, NewVersion, run_ladder
from admiralty.arena.ratings import ArenaRater
from admiralty.arena.store import ArenaStore, SeatResult
from admiralty.referee import InProcessSeat
from admiralty.referee.match import MatchSpec
from admiralty.tournament.plan import derive_seed

RANDOM, GREEDY = "random_bot.py", "jamaica_greedy.py"


def ladder(store, lobby, players=2, matches=None, **settings) -> int:
    settings = {"records": None, "max_matches": 3, "seed": 1, **settings}
    return asyncio.run(run_ladder(store, lobby, "jamaica", players, matches=matches, **settings))


def arena(tmp_path, bots) -> tuple[ArenaStore, LocalLobby]:
    store, lobby = ArenaStore(tmp_path / "arena.db", create=True), LocalLobby()
    registered(store, lobby, bots)
    return store, lobby


def randoms(*names: str) -> dict:
    return {name: example(RANDOM, seed=i) for i, name in enumerate(names)}


def test_sixty_matches_rank_every_greedy_bot_above_every_random_one(tmp_path):
    bots = {f"greedy-{i}": example(GREEDY) for i in range(3)} | randoms("r-0", "r-1", "r-2")
    store, lobby = arena(tmp_path, bots)
    assert ladder(store, lobby, matches=60, records=tmp_path / "rec") == 60
    order = [s.name for s in store.standings()]
    assert sorted(order[:3]) == ["greedy-0", "greedy-1", "greedy-2"], order
    matches = store.matches()
    assert len(matches) == 60 and {m.status for m in matches} == {"finished"}
    assert {m.record for m in matches} == {
        str(tmp_path / "rec" / f"arena-{m.id}.jsonl.gz") for m in matches
    }
    assert all((tmp_path / "rec" / f"arena-{m.id}.jsonl.gz").is_file() for m in matches)
    assert all(m.seed == derive_seed(1, "arena", m.id) for m in matches)
    assert all(not e.leased for e in lobby.entrants.values())


def test_every_bot_gets_games_and_every_seat_in_turn(tmp_path):
    store, lobby = arena(tmp_path, randoms("a", "b", "c", "d", "e"))
    ladder(store, lobby, players=3, matches=50)
    seats = store.seat_games()
    games = {bot: sum(seats[(bot, seat)] for seat in range(3)) for bot in "abcde"}
    assert sum(games.values()) == 150
    assert min(games.values()) >= 0.8 * 150 / 5, games  # opponents are chosen by quality
    for bot in "abcde":
        in_seat = [seats[(bot, seat)] for seat in range(3)]
        assert max(in_seat) - min(in_seat) <= 1, (bot, in_seat)


def rated_pairs(store: ArenaStore) -> None:
    """A and B have beaten C and D as often, ten times each: A and B are close, and far
    above C and D."""
    for name in "ABCD":
        store.new_version(name, "1.0", keep=True)
    for number in range(1, 21):
        winner, loser = ("A", "C") if number % 2 else ("B", "D")
        store.start(number, "jamaica", number, [(winner, "1.0"), (loser, "1.0")], None)
        store.finish(number, [SeatResult(winner, "1.0", 1, 1), SeatResult(loser, "1.0", 2, 0)])


def chooser(store: ArenaStore, lobby: LocalLobby) -> Ladder:
    spec = MatchSpec("", "jamaica", 1)
    return Ladder(store, lobby, spec, 2, NewVersion.KEEP, lambda number, outcome: None)


def test_opponents_are_drawn_in_proportion_to_match_quality(tmp_path):
    store, lobby = arena(tmp_path, randoms("A", "B", "C", "D"))
    rated_pairs(store)
    picks = chooser(store, lobby)
    drawn = Counter()
    for _ in range(2000):
        seated = picks.pick()
        assert seated is not None and "A" in {e.name for e in seated}  # fewest games, first
        drawn.update(e.name for e in seated if e.name != "A")
    skills, rater = store.skills(), ArenaRater()
    quality = {name: rater.quality([skills["A"], skills[name]]) for name in "BCD"}
    assert drawn.most_common(1)[0][0] == "B"
    for name in "BCD":
        assert abs(drawn[name] / 2000 - quality[name] / sum(quality.values())) < 0.04


def test_every_match_seats_the_free_bot_with_fewest_games(tmp_path):
    store, lobby = arena(tmp_path, randoms("A", "B", "C", "D", "E"))
    rated_pairs(store)
    picks = chooser(store, lobby)
    assert all("E" in {e.name for e in picks.pick() or ()} for _ in range(50))


def test_bots_whose_matches_end_together_still_meet_the_others(tmp_path):
    """Two bots that finish a match together are free together: with others still
    playing, they wait for a third rather than meet again, so the greedy pair and the
    random pair do not keep to themselves, and are told apart."""
    bots = {"g1": example(GREEDY), "g2": example(GREEDY)} | randoms("r1", "r2")
    store, lobby = ArenaStore(tmp_path / "arena.db", create=True), LocalLobby()
    registered(store, lobby, bots, connections=2, pause=0.0005)
    ladder(store, lobby, matches=40, max_matches=4)
    met = {frozenset(bot for bot, _ in m.players) for m in store.matches()}
    assert len(met) == 6  # every pair of the four
    order = [s.name for s in store.standings()]
    assert sorted(order[:2]) == ["g1", "g2"], order


def test_the_same_seed_and_bots_play_the_same_ladder(tmp_path):
    def played(folder: str) -> list[tuple]:
        bots = randoms("r-0", "r-1") | {"g": example(GREEDY)}
        store, lobby = arena(tmp_path / folder, bots)
        ladder(store, lobby, players=2, matches=12, seed=99)
        return [(m.seed, m.players, [r.place for r in m.results]) for m in store.matches()]

    (tmp_path / "one").mkdir(), (tmp_path / "two").mkdir()
    assert played("one") == played("two")


class Hung(InProcessSeat):
    """A seat bot that never answers: its match runs until the ladder is stopped."""

    name = "hung"

    async def decide(self, request, timeout):
        await asyncio.Event().wait()


class HungEntrant(LocalEntrant):
    def seat_bot(self):
        return Hung()


def test_stopping_the_ladder_voids_its_matches_and_releases_their_seats(tmp_path):
    store, lobby = arena(tmp_path, randoms("a", "b"))
    lobby.entrants["a"] = HungEntrant(lobby, "a", example(RANDOM), 1)
    told = []

    async def stop_mid_match() -> None:
        task = asyncio.create_task(
            run_ladder(
                store,
                lobby,
                "jamaica",
                2,
                records=None,
                max_matches=2,
                seed=3,
                deadline=30.0,
                notify=lambda number, outcome: told.append((number, type(outcome).__name__)),
            )
        )
        while not lobby.entrants["a"].leased:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(stop_mid_match())
    assert [(m.id, m.status, m.results) for m in store.matches()] == [(1, "void", [])]
    assert told == [(1, "CancelledError")]
    assert all(not e.leased for e in lobby.entrants.values())
    assert all(s.games == 0 for s in store.standings())


class Unleasable(LocalEntrant):
    def lease(self):
        raise LookupError("the bot's connection just dropped")


def test_a_match_whose_seat_cannot_be_leased_is_void(tmp_path):
    store, lobby = arena(tmp_path, randoms("a", "b"))
    lobby.entrants["b"] = Unleasable(lobby, "b", example(RANDOM), 1)

    async def until_void() -> None:
        task = asyncio.create_task(
            run_ladder(store, lobby, "jamaica", 2, records=None, max_matches=1, seed=3)
        )
        while not store.matches():
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(until_void())
    assert [(m.id, m.status) for m in store.matches()] == [(1, "void")]
    assert not lobby.entrants["a"].leased


def test_a_removed_bot_is_never_seated_and_is_sent_away(tmp_path):
    store, lobby = arena(tmp_path, randoms("a", "b", "c"))
    store.remove("c")
    ladder(store, lobby, matches=6)
    assert lobby.removed == ["c"]
    assert {bot for m in store.matches() for bot, _ in m.players} == {"a", "b"}


def test_a_bot_of_other_games_is_never_seated(tmp_path):
    store, lobby = arena(tmp_path, randoms("a", "b"))
    store.add("fleet")
    lobby.join("fleet", example("black_fleet_greedy.py"))
    ladder(store, lobby, matches=4)
    assert {bot for m in store.matches() for bot, _ in m.players} == {"a", "b"}
    assert {s.name for s in store.standings()} == {"a", "b"}


def test_matches_left_running_by_a_stopped_arena_are_void_when_it_restarts(tmp_path):
    store, lobby = arena(tmp_path, randoms("a", "b"))
    for name in "ab":
        store.new_version(name, "1.0", keep=True)
    store.start(1, "jamaica", 5, [("a", "1.0"), ("b", "1.0")], None)
    assert ladder(store, lobby, matches=2) == 2
    assert [(m.id, m.status) for m in store.matches()] == [
        (3, "finished"),
        (2, "finished"),
        (1, "void"),
    ]


@pytest.mark.parametrize(
    ("rule", "start"), [(NewVersion.KEEP, "kept"), (NewVersion.RESET, "reset")]
)
def test_a_bot_back_with_a_new_version_is_rated_as_the_operator_chose(tmp_path, rule, start):
    store, lobby = arena(tmp_path, randoms("a", "b", "c"))
    ladder(store, lobby, matches=9)
    before = {s.name: s.skill for s in store.standings()}
    lobby.entrants["a"].version = "2.0"
    ladder(store, lobby, matches=6, new_version=rule)
    versions = Counter(version for m in store.matches() for bot, version in m.players if bot == "a")
    standing = {s.name: s for s in store.standings()}["a"]
    assert (standing.version, standing.games) == ("2.0", versions["2.0"])
    assert versions["1.0"] > 0 and versions["2.0"] > 0
    with sqlite3.connect(tmp_path / "arena.db") as db:
        row = db.execute("SELECT rating, mu, sigma FROM versions WHERE version='2.0'").fetchone()
    initial = store.rater.initial()
    kept = before["a"] if start == "kept" else initial
    assert row == (start, kept.mu, kept.sigma)


def test_a_ladder_refuses_too_few_players_and_a_full_table_game():
    with pytest.raises(ValueError, match="at least 2 players"):
        ladder(None, None, players=1)
    with pytest.raises(ValueError, match="jamaica"):
        ladder(None, None, players=9)
