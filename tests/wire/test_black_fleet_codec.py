"""Every Black Fleet view, option payload and the static board fit the typed messages exactly.

The codec parses strictly, so an engine field without a proto field fails here; and each
message converted back to JSON gives the engine's data again, so nothing is lost or
retyped on the way (None and empty lists aside: protobuf does not tell them apart)."""

import random
from collections import Counter

import pytest
from google.protobuf import json_format

from admiralty.games import load_game
from admiralty.wire import codec_for, options_to_pb

CODEC = codec_for("black_fleet")
GAME = load_game("black_fleet")
REQUEST_KINDS = {
    "place_merchant", "reenter_merchant", "reenter_pirate", "play_fortune", "play_movement",
    "choose_ship", "choose_action", "move_ship", "choose_target", "choose_destination",
    "discard_fortune", "buy", "name_port",
}  # docs/games/black_fleet.md, "Requests"


def plain(message) -> dict:
    return json_format.MessageToDict(message, preserving_proto_field_name=True,
                                     always_print_fields_with_no_presence=True)


def pruned(data):
    """JSON data without None values and empty lists, the absences protobuf cannot tell apart."""
    if isinstance(data, dict):
        return {k: pruned(v) for k, v in data.items() if v is not None and v != []}
    if isinstance(data, list):
        return [pruned(item) for item in data]
    return data


def test_the_static_info_fits_black_fleet_board():
    info = GAME.static_info()
    board = CODEC.board_pb(info)
    assert pruned(plain(board)) == pruned(info)
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
def test_every_view_for_every_viewer_fits_the_protos(players, seed):
    """Short random games (round cap 4: a few hundred decisions) through to the outcome."""
    state, rng = GAME.new_game(players, seed, {"round_cap": 4}), random.Random(seed)
    while True:
        for viewer in (None, *range(players)):
            view = state.view(viewer)
            observation = CODEC.observation_pb(view)
            assert pruned(plain(observation)) == pruned(view)
            for seat in observation.seats:
                own = seat.seat == viewer
                assert bool(seat.movement_hand) == (own and seat.movement_cards_held > 0)
                assert bool(seat.fortune_hand) == (own and seat.fortune_cards_held > 0)
                assert all(card.HasField("card") == (own or card.bought)
                           for card in seat.development)
        if state.outcome() is not None:
            break
        request = state.pending()[0]
        state.apply(request.seat, rng.randrange(len(request.options)))
    assert list(observation.outcome.scores) == list(state.outcome().scores)
    assert observation.outcome.reason == "round_cap"


@pytest.mark.parametrize("players", [3, 4])
def test_every_option_payload_of_random_games_fits_the_protos(players):
    """Full random games, so every request kind of the docs turns up."""
    kinds = Counter()
    for seed in range(4):
        state, rng = GAME.new_game(players, seed), random.Random(seed)
        while state.outcome() is None:
            request = state.pending()[0]
            kinds[request.kind] += 1
            messages = options_to_pb(CODEC, request.options)
            assert [m.key for m in messages] == [o.key for o in request.options]
            for message, option in zip(messages, request.options, strict=True):
                if option.payload:
                    assert message.WhichOneof("typed") == "black_fleet"
                    assert json_format.MessageToDict(
                        message.black_fleet, preserving_proto_field_name=True) == option.payload
            state.apply(request.seat, rng.randrange(len(request.options)))
    assert set(kinds) == REQUEST_KINDS
