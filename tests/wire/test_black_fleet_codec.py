"""Black Fleet's own facts in its typed messages: the board's details, whose cards an
observation holds, every request kind of the docs (tests/contract checks that every view,
payload and board round-trips)."""

import random

import pytest

from admiralty.games import load_game
from admiralty.wire import codec_for, options_to_pb

CODEC = codec_for("black_fleet")
GAME = load_game("black_fleet")
REQUEST_KINDS = {
    "place_merchant",
    "reenter_merchant",
    "reenter_pirate",
    "play_fortune",
    "play_movement",
    "choose_ship",
    "choose_action",
    "move_ship",
    "choose_target",
    "choose_destination",
    "discard_fortune",
    "buy",
    "name_port",
}  # docs/games/black_fleet.md, "Requests"


def test_the_static_info_fits_black_fleet_board():
    info = GAME.static_info()
    board = CODEC.board_pb(info)
    assert len(board.board.spaces) == 86 and len(board.board.ports) == 5
    assert dict(board.board.navy_start) == {"yellow": 36, "purple": 67}
    assert dict(board.board.ports[0].buys) == info["board"]["ports"][0]["buys"]
    space = {s.id: s for s in board.board.spaces}
    assert space[16].port == "T" and not space[1].HasField("port")
    assert space[14].beach == 3 and not space[1].HasField("beach")
    fortune = {card.id: card for card in board.fortune_cards}
    assert fortune["F12"].target == "navy" and fortune["F12"].steps == 3
    assert dict(fortune["F01"].boosts) == {"move_bonus.merchant": 2}
    assert not fortune["F01"].HasField("reward")
    assert len(board.movement_cards) == 44 and len(board.development_cards) == 24


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("players", [3, 4])
def test_an_observation_holds_cards_only_for_its_own_seat(players, seed):
    """Short random games (round cap 4: a few hundred decisions) through to the outcome."""
    state, rng = GAME.new_game(players, seed, {"round_cap": 4}), random.Random(seed)
    while True:
        for viewer in (None, *range(players)):
            observation = CODEC.observation_pb(state.view(viewer))
            for seat in observation.seats:
                own = seat.seat == viewer
                assert bool(seat.movement_hand) == (own and seat.movement_cards_held > 0)
                assert bool(seat.fortune_hand) == (own and seat.fortune_cards_held > 0)
                assert all(
                    card.HasField("card") == (own or card.bought) for card in seat.development
                )
        if state.outcome() is not None:
            break
        request = state.pending()[0]
        state.apply(request.seat, rng.randrange(len(request.options)))
    assert list(observation.outcome.scores) == list(state.outcome().scores)
    assert observation.outcome.reason == "round_cap"


@pytest.mark.parametrize("players", [3, 4])
def test_every_request_kind_of_the_docs_fits_the_protos(players):
    """Full random games, so every request kind of the docs turns up (tests/contract checks
    that every payload round-trips)."""
    kinds = set()
    for seed in range(4):
        state, rng = GAME.new_game(players, seed), random.Random(seed)
        while state.outcome() is None:
            request = state.pending()[0]
            kinds.add(request.kind)
            options_to_pb(CODEC, request.options)
            state.apply(request.seat, rng.randrange(len(request.options)))
    assert kinds == REQUEST_KINDS
