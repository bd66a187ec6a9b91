"""The end of the game and scoring ([jamaica §9])."""

from __future__ import annotations

from jamaica_helpers import new, public, round_with

from admiralty.games.jamaica import arrange

FORWARD_FORWARD = 3


def finish(state, others):
    """Seat 0 finishes from 48; the others sit where `others` says; the round is played."""
    arrange.place(state, 0, 48)
    for seat, space in others.items():
        arrange.place(state, seat, *space) if isinstance(space, tuple) else arrange.place(
            state, seat, space
        )
    return round_with(state, {0: FORWARD_FORWARD}, dice=(5, 2))


def test_the_score_is_position_plus_doubloons_plus_treasures():
    """[jamaica §9.2]: the white number (15 for the finisher, -5 on or behind the -5
    space), every doubloon, plus treasures, minus cursed ones; powers score nothing."""
    state = new(3)
    arrange.treasure(state, 1, "treasure_7a")
    arrange.treasure(state, 1, "morgans_map")
    arrange.treasure(state, 2, "cursed_2")
    events = finish(state, {1: 44, 2: 40})
    outcome = state.outcome()
    assert outcome.scores == (15 + 3, 5 + 3 + 7, -5 + 3 - 2)
    assert outcome.places == (1, 2, 3)
    over = public(events, "game_over")[0]
    assert over["reason"] == "finish" and over["finishers"] == [0]
    assert over["scores"] == [18, 15, -4] and over["places"] == [1, 2, 3]
    assert over["treasures"] == [[], [7], [-2]]


def test_the_first_space_after_the_minus_five_line_scores_its_number():
    """[jamaica §9.2, G1] (data/track.toml): space 41 shows 2, space 40 is behind the line."""
    state = new(3)
    finish(state, {1: 41, 2: 40})
    assert state.outcome().scores[1:] == (2 + 3, -5 + 3)


def test_a_ship_behind_the_start_line_scores_minus_five():
    """[jamaica §9.2, G10]: a pre_start ship has its whole lap to sail, whatever it sits on."""
    state = new(3)
    finish(state, {1: (49, "pre_start"), 2: 49})
    assert state.outcome().scores[1:] == (-5 + 3, 10 + 3)


def test_a_tie_goes_to_the_ship_further_along():
    """[jamaica §9.3, G11]: equal scores: fewer steps left to the finish wins."""
    state = new(3)
    arrange.holds(state, 2, [("food", 3), ("gold", 4), None, None, None])
    finish(state, {1: 44, 2: 43})
    assert state.outcome().scores[1:] == (8, 8)
    assert state.outcome().places == (1, 2, 3)


def test_players_still_tied_share_the_place():
    """[jamaica §9.3]: the same score on the same space: a shared place."""
    state = new(4)
    finish(state, {1: 44, 2: 44, 3: 30})
    assert state.outcome().places == (1, 2, 2, 4)


def test_everything_is_revealed_once_the_game_is_over():
    """[jamaica §9.4]: every face-down treasure is shown, and the final result."""
    state = new(3)
    arrange.treasure(state, 2, "cursed_3")
    finish(state, {1: 44, 2: 40})
    view = state.view(1)
    assert view["phase"] == "game_over" and view["players"][2]["treasures"] == [-3]
    assert view["outcome"] == {"places": [1, 2, 3], "scores": [18, 8, -5], "reason": "finish"}
    assert view["players"][2]["score"] == -5


def test_the_ghost_still_sails_in_the_last_round():
    """[jamaica §9.1, G26]: the round is played out normally, Ghost Ship included."""
    state = new(2)
    events = finish(state, {1: 44, -1: 20})
    assert [s["reason"] for s in public(events, "ghost_sails")] == ["last", "last"]
    assert state.ghost.space == 29 and state.outcome() is not None


def test_a_safety_cap_on_rounds_ends_the_game():
    """[jamaica §9.5]: no round limit in the rules; the server's cap (round_cap) ends the game
    after that round, scored as usual."""
    state = new(3, round_cap=1)
    events = round_with(state, {})
    assert public(events, "game_over")[0]["reason"] == "round_cap"
    assert state.outcome().scores == (-5 + 3, -5 + 3, -5 + 3)
    assert state.outcome().places == (1, 1, 1)


def test_several_ships_may_finish_in_the_same_round():
    """[jamaica §9.1]: seat 0 finishes, the round goes on, seat 1 finishes too (no combat
    on Port Royal); the game ends after the round and both score the finish's 15."""
    state = new(3)
    arrange.holds(state, 1, [("food", 3), ("gold", 5), None, None, None])
    arrange.place(state, 0, 48)
    arrange.place(state, 1, 47)
    arrange.place(state, 2, 44)
    events = round_with(state, {0: FORWARD_FORWARD, 1: FORWARD_FORWARD}, dice=(5, 2))
    assert public(events, "finished") == [{"ship": 0, "round": 1}, {"ship": 1, "round": 1}]
    assert public(events, "combat_started") == []
    over = public(events, "game_over")[0]
    assert over["finishers"] == [0, 1] and state.finishers == [0, 1]
    assert over["scores"] == [15 + 3, 15 + 5, 5 + 3] and over["places"] == [2, 1, 3]


def test_every_doubloon_scores_one_wherever_it_is_held():
    """[jamaica §9.2, G29]: every doubloon token is worth 1, those in the 6th Hold too;
    food and gunpowder (loaded this round) score nothing."""
    state = new(3)
    arrange.treasure(state, 1, "sixth_hold")
    arrange.holds(state, 1, [("gold", 12), ("gold", 1), ("food", 9), None, None, ("gold", 4)])
    finish(state, {1: 44, 2: 40})
    assert state.ships[1].total("gunpowder") == 5 and state.ships[1].total("food") == 9 + 2
    assert state.outcome().scores[1] == 5 + 12 + 1 + 4
