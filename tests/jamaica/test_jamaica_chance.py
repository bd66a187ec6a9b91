"""Named chance streams [jamaica §13]: every draw of a game comes from a stream named for
its purpose, so two games on one seed share their luck whatever is decided in them.

Round r's action dice are the stream ("dice", r); a battle's rolls are named by the round,
whose turn it is, the half, the attacker, the defender, the role and the roll; the k-th
shuffle of a seat's deck is ("deck", seat, k). These tests play games on one seed with
different decisions and compare what chance gave them.
"""

from __future__ import annotations

import random

from jamaica_helpers import QUIET, deal, new, play, public, start

from admiralty.games.chance import Chance
from admiralty.games.jamaica import Jamaica, arrange
from admiralty.games.jamaica.data import load

DATA = load()
FORWARD_FOOD = 4


def dice_by_round(players: int, seed: int, chooser_seed: int) -> dict[int, list[int]]:
    """The dice of every round of a random game on `seed`, answered by a chooser of its
    own (`chooser_seed`)."""
    state = Jamaica().new_game(players, seed)
    chooser = random.Random(chooser_seed)
    events = list(state.setup_events)
    while state.outcome() is None:
        request = chooser.choice(state.pending())
        events += state.apply(request.seat, chooser.randrange(len(request.options)))
    return {e.data["round"]: e.data["dice"] for e in events if e.kind == "round_started"}


def test_two_games_on_one_seed_roll_the_same_dice_in_every_round_whatever_is_decided():
    """[jamaica §13] Round r's dice are the stream ("dice", r): games answered differently
    (so differing from the first round on) still see the same dice round by round."""
    for players, seed in [(2, 11), (4, 12), (6, 13)]:
        first, second = (dice_by_round(players, seed, chooser) for chooser in (1, 2))
        common = sorted(set(first) & set(second))
        assert len(common) >= 10
        expected = Chance(seed)
        for r in common:
            assert (
                first[r]
                == second[r]
                == list(expected.rolls(DATA.action_faces, DATA.action_dice, "dice", r))
            )


def fights(seed: int, captain_fights: bool) -> list:
    """A round of 4 players: seat 1 sails from 16 onto seat 3 at 18 in its morning and
    fights; before it, the Captain (seat 0) either stays put or sails from 40 onto seat 2
    at 42 and fights first. Every other answer is option 0. The events of the round."""
    state = new(4, seed=seed)
    for seat, space in enumerate((40, 16, 42, 18)):
        arrange.place(state, seat, space)
        arrange.holds(state, seat, [("food", 9), ("gold", 9), None, None, None])
    cards = {0: FORWARD_FOOD if captain_fights else QUIET, 1: FORWARD_FOOD}
    deal(state, cards)
    events = start(state, 0, (2, 1)) + play(state, cards)
    while state.pending()[0].kind != "place_dice":
        request = state.pending()[0]
        events += state.apply(request.seat, 0)
    return events


def test_the_same_fight_rolls_the_same_dice_whatever_came_before_it():
    """[jamaica §7, §13] A battle's rolls are named by the round, whose turn it is, the half,
    the attacker, the defender, the role and the roll, never by how many rolls came before:
    seat 1's fight rolls the same faces whether or not the Captain fought before it, and
    they are the faces of its named streams."""
    for seed in range(6):
        rolls = []
        for captain_fights in (False, True):
            events = fights(seed, captain_fights)
            started = public(events, "combat_started")
            assert started[-1] == {"attacker": 1, "defender": 3, "space": 18}
            assert len(started) == 1 + captain_fights
            battles: list[list[tuple[str, int | str]]] = [[]]
            for event in events:
                if event.kind == "combat_started" and event.audience is None:
                    battles.append([])
                elif event.kind == "combat_roll" and event.audience is None:
                    battles[-1].append((event.data["role"], event.data["face"]))
            rolls.append(battles[-1])
        assert rolls[0] == rolls[1] and rolls[0]
        chance = Chance(seed)
        for role, face in rolls[0]:
            assert (face,) == chance.rolls(
                DATA.combat_faces, 1, "combat", 1, 1, "morning", 1, 3, role, 0
            )


def test_a_deck_reshuffle_depends_only_on_the_seed_the_seat_and_which_shuffle_it_is():
    """[jamaica §5.4, §13] The k-th shuffle of a seat's deck is the stream ("deck", seat, k)
    of its cards in order: the same cards in any order, in games with any past, shuffle
    alike; another seat, another shuffle or another seed shuffle otherwise."""
    orders = {}
    for seed in (5, 6):
        for rounds in (0, 3):
            state = new(4, seed=seed)
            chooser = random.Random(rounds)
            while state.round <= rounds:  # a different past: `rounds` random rounds
                request = chooser.choice(state.pending())
                state.apply(request.seat, chooser.randrange(len(request.options)))
            for seat in (1, 2):
                ship = state.ships[seat]
                cards = ship.deck + ship.discard
                k = ship.shuffles
                ship.deck, ship.discard = [], random.Random(rounds).sample(cards, len(cards))
                state._reshuffle(seat)
                assert ship.deck == Chance(seed).shuffled(sorted(cards), "deck", seat, k)
                assert ship.shuffles == k + 1 and ship.discard == []
                orders[seed, rounds, seat] = (tuple(sorted(cards)), k, ship.deck)
    for seed in (5, 6):
        for seat in (1, 2):
            (cards0, k0, deck0), (cards3, k3, deck3) = (
                orders[seed, 0, seat],
                orders[seed, 3, seat],
            )
            if (cards0, k0) == (cards3, k3):
                assert deck0 == deck3
    chance = Chance(5)
    cards = sorted(DATA.cards)
    shuffles = {
        tuple(chance.shuffled(cards, "deck", seat, k)) for seat in range(4) for k in range(3)
    }
    assert len(shuffles) == 12


def test_an_empty_deck_is_reshuffled_from_its_own_stream_during_play():
    """[jamaica §5.4] The refill that finds the deck empty shuffles the discard pile with
    the seat's next deck stream: two games whose other seats play differently give the
    seat the same new deck, the top card of which it draws."""
    decks = []
    for other in (QUIET, 11):
        state = new(3, seed=8)
        cards = {0: QUIET, 1: other, 2: QUIET}
        deal(state, cards)
        ship = state.ships[0]
        ship.discard, ship.deck = ship.deck, []
        shuffled = Chance(8).shuffled(sorted([*ship.discard, QUIET]), "deck", 0, 1)
        events = start(state) + play(state, cards)
        assert public(events, "deck_reshuffled") == [{"seat": 0, "deck_size": 9}]
        assert ship.deck == shuffled[:-1] and shuffled[-1] in ship.hand
        assert ship.shuffles == 2
        decks.append(ship.deck[:])
    assert decks[0] == decks[1]


def test_the_seed_is_in_the_snapshot_only():
    """[jamaica §12] The chance's seed fixes the game but no seat is told it: views and
    events never show it; the snapshot (what the digest hashes) holds it as text."""
    seed = 2**100 + 12345
    state = Jamaica().new_game(3, seed)
    assert state.snapshot()["chance"] == str(seed)
    shown = repr([state.view(viewer) for viewer in (None, 0, 1, 2)])
    shown += repr([e.to_json() for e in state.setup_events])
    assert str(seed) not in shown and repr(state.chance) == "Chance(<hidden seed>)"
