"""Fair play: the window structure tells no seat what it cannot see ([jamaica §7] C9, [jamaica §11]
I-4, [jamaica §12, §15, G16, G17, G18]).

Twin games differ only in something an observer cannot see. Given the same public
decisions, the observer's view, the public view, the events it is told, its own requests
and which seats are asked must stay identical, until the rules reveal the difference.
"""

from __future__ import annotations

import json
import random

from jamaica_helpers import new
from twins import PARTS, Twins, compare, jamaica_opening, observed, random_twins

from admiralty.games import visible_events
from admiralty.games.jamaica import JamaicaState, arrange
from admiralty.games.jamaica.data import load

DATA = load()

WINNER_HOLDS = [("food", 3), ("gold", 3), None, None, None]
DECK_TOP = [
    "treasure_7a",
    "cursed_4",
    "sixth_hold",
    "treasure_3b",
    "lady_beth",
    "treasure_7b",
    "sarans_sabre",
]
"""The next treasures drawn, whatever the secret (none is a secret of these tests)."""


def fight(secret: str, defender_wins: bool = False) -> JamaicaState:
    """Seat 0 (Captain, dice 2 and 1, card 4: forward / food) sails from 16 onto seat 1 at 18 and
    the fight's winner holds one face-down card, `secret`; the loser has empty holds and no
    treasure, so there is nothing to take ([jamaica §7] C9 a, b) and only `secret` might be given
    ([jamaica §7] C9 c, [jamaica G16]). The attacker wins with a star, or the defender with one.
    The first seven treasures drawn are `DECK_TOP` in every twin, so drawing one at a lair does not
    tell twins apart: only the rules revealing `secret` does."""
    state = new(3)
    winner, loser = (1, 0) if defender_wins else (0, 1)
    arrange.captain(state, 0, dice=(2, 1))
    arrange.place(state, 0, 16)
    arrange.place(state, 1, 18)
    arrange.holds(state, winner, WINNER_HOLDS)
    arrange.holds(state, loser, [None] * 5)
    for seat, card in enumerate((4, 10, 10)):
        arrange.hand(state, seat, [card, *[c for c in state.ships[seat].hand if c != card][:2]])
    arrange.treasure(state, winner, secret)
    arrange.treasure_deck(state, DECK_TOP)
    arrange.rig(state, combat=[1, "star"] if defender_wins else ["star"])
    return state


def told(events, viewer) -> str:
    return json.dumps([e.to_json() for e in visible_events(events, viewer)], sort_keys=True)


def step_both(
    cursed: JamaicaState, ordinary: JamaicaState, holder: int, seat: int, key: str
) -> None:
    """Answer `seat` with `key` in both twins; every seat but `holder` (of the secret),
    and the public, must be told and shown the same."""
    events = []
    for state in (cursed, ordinary):
        keys = [o.key for o in state.request_for(seat).options]
        events.append(state.apply(seat, keys.index(key)))
    for viewer in [s for s in range(cursed.players) if s != holder] + [None]:
        assert told(events[0], viewer) == told(events[1], viewer)
        if viewer is not None:
            assert observed(cursed, viewer) == observed(ordinary, viewer)


OPENING = [(0, "dice:sun=2,moon=1"), (0, "card:4"), (1, "card:10"), (2, "card:10")]


def play_to_the_spoils(cursed: JamaicaState, ordinary: JamaicaState, holder: int) -> None:
    for seat, key in OPENING:
        step_both(cursed, ordinary, holder, seat, key)


def keys_of(state: JamaicaState, seat: int) -> list[str]:
    return [o.key for o in state.request_for(seat).options]


def test_the_attacking_winner_is_asked_for_spoils_whether_or_not_it_holds_a_cursed_card():
    """[jamaica §7] C9, [jamaica §12, G16, G17, G18]: a winner holding a cursed treasure may give
    it; one holding an ordinary face-down treasure may not. Both are asked (the ordinary one with
    `loot:none` alone), so the others cannot tell from the window whether the card is cursed."""
    cursed, ordinary = fight("cursed_3"), fight("treasure_5")
    play_to_the_spoils(cursed, ordinary, 0)
    assert keys_of(cursed, 0) == ["loot:none", "give:cursed:-3"]
    assert keys_of(ordinary, 0) == ["loot:none"]
    for state in (cursed, ordinary):
        request = state.request_for(0)
        assert (request.kind, str(request.window)) == ("loot", "TURN")
        assert state.view(None)["combat"]["stage"] == "spoils"
    assert cursed.view(None) == ordinary.view(None)
    step_both(cursed, ordinary, 0, 0, "loot:none")
    assert cursed.view(None) == ordinary.view(None)
    assert compare(Twins("attacker", "jamaica", cursed, ordinary, 2, jamaica_opening), 300) > 20


def test_the_defending_winner_is_asked_out_of_turn_either_way():
    """[jamaica §7] C9, [jamaica §11] I-4, [jamaica §12]: the same when the defender wins (an
    INTERRUPT window)."""
    cursed, ordinary = fight("cursed_2", True), fight("treasure_3a", True)
    play_to_the_spoils(cursed, ordinary, 1)
    assert keys_of(cursed, 1) == ["loot:none", "give:cursed:-2"]
    assert keys_of(ordinary, 1) == ["loot:none"]
    assert [str(r.window) for r in ordinary.pending()] == ["INTERRUPT"]
    step_both(cursed, ordinary, 1, 1, "loot:none")
    assert compare(Twins("defender", "jamaica", cursed, ordinary, 2, jamaica_opening), 300) > 20


def test_a_winner_without_face_down_cards_and_nothing_to_take_is_not_asked():
    """[jamaica G18]: when nobody could know of a choice, none is asked: the table sees that the
    winner holds no face-down card and that the loser has nothing."""
    state = fight("morgans_map")  # a power: face up
    for seat, key in OPENING:
        state.apply(seat, keys_of(state, seat).index(key))
    assert state.pending()[0].kind != "loot" and state.combat is None


def crowd(state: JamaicaState, rng: random.Random) -> None:
    """Make fights over nothing likelier: every ship within a few spaces of the others,
    most with empty holds and only moves in hand, the seats with face-down treasures,
    cursed or not ([jamaica §7, §8.3])."""
    face_down = [
        t for t in state.treasure_deck + state.removed if DATA.treasures[t].kind != "power"
    ]
    rng.shuffle(face_down)
    for ship in state.fleet():
        arrange.place(state, ship, rng.randrange(10, 18))
        if rng.random() < 0.7:
            arrange.holds(state, ship, [None] * len(state.ship(ship).kinds))
            if ship >= 0:
                arrange.hand(state, ship, [1, 2, 3])  # forward and backward only
        for _ in range(rng.randrange(3) if ship >= 0 else 0):
            if face_down:
                arrange.treasure(state, ship, face_down.pop())


def test_what_a_seat_cannot_see_never_changes_what_it_is_shown():
    """Property: from random positions of random games (2-6 players, half of them
    starting with empty holds and face-down treasures), a twin that deals again some of
    what one seat cannot see (other hands and chosen cards, deck orders, face-down
    treasures, the RNG) shows that seat the same views, public view, events and requests,
    and asks the same seats, under the same public decisions, until a rule reveals the
    difference (a card turned up, a roll, a draw, the end). So nothing the seat is shown
    depends on what it cannot see."""
    rng = random.Random(20240611)
    compared = reached = 0
    for case in range(90):
        crowded = case % 3 > 0  # then compare from the first rounds, where the fights are
        if crowded:
            parts = ("treasures", "decks") if rng.random() < 0.3 else ("treasures",)
        else:
            parts = tuple(p for p in PARTS["jamaica"] if rng.random() < 0.5) or ("hands",)
        twins = random_twins(
            "jamaica",
            rng.getrandbits(32),
            rng.randrange(12 if crowded else 300),
            players=rng.choice([2, 3, 4, 5, 6]),
            parts=parts,
            setup=crowd if crowded else None,
        )
        steps = compare(twins, 200)
        compared += steps
        reached += steps > 0
    assert compared > 2000 and reached > 45
