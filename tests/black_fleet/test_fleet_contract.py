"""The engine contract (server/admiralty/games/base.py) as Black Fleet implements it."""

from __future__ import annotations

import json
import random

import pytest

from admiralty.games import GAMES, IllegalAction, Window, load_game

FLAT = (str, int, bool, type(None))


def test_registered_for_three_and_four_players():
    game = load_game("black_fleet")
    assert "black_fleet" in GAMES
    assert (game.min_players, game.max_players, game.default_players) == (3, 4, 4)
    assert game.options == {"victory_cost": 10, "round_cap": 60}
    assert len(game.rules_hash()) == 16


@pytest.mark.parametrize("bad", [-1, 99, True, "0", 1.0, None])
def test_an_illegal_index_raises_and_changes_nothing(bad):
    state = load_game("black_fleet").new_game(4, 5)
    before = state.digest()
    with pytest.raises(IllegalAction):
        state.apply(0, bad)
    assert state.digest() == before


def test_a_seat_without_a_request_raises_and_changes_nothing():
    state = load_game("black_fleet").new_game(4, 5)
    before = state.digest()
    with pytest.raises(IllegalAction):
        state.apply(2, 0)
    with pytest.raises(IllegalAction):
        state.request_for(2)
    assert state.digest() == before and state.request_for(0).seat == 0


def test_requests_options_and_payloads_keep_their_shape():
    """Stable unique keys; optional requests put PASS (or buy:none) first; flat payloads;
    the same field names for the same kind of option; windows SETUP or TURN."""
    game = load_game("black_fleet")
    fields: dict[str, set] = {}
    kinds = set()
    for seed in range(6):
        state = game.new_game(3 + seed % 2, seed)
        bot = random.Random(seed)
        while state.outcome() is None:
            (request,) = state.pending()
            kinds.add(request.kind)
            keys = [option.key for option in request.options]
            assert len(keys) == len(set(keys)) >= (1 if request.kind == "play_fortune" else 2)
            assert 0 <= request.default < len(keys)
            assert request.window == (
                Window.SETUP if request.kind == "place_merchant" else Window.TURN
            )
            if request.optional:
                assert keys[0] in ("pass", "buy:none")
            for option in request.options:
                assert all(isinstance(v, FLAT) for v in option.payload.values()), option
                prefix = ":".join(option.key.split(":")[:2])
                fields.setdefault(prefix, set()).add(tuple(sorted(option.payload)))
            state.apply(request.seat, bot.randrange(len(keys)))
    assert {
        "play_movement",
        "choose_ship",
        "move_ship",
        "choose_action",
        "buy",
        "play_fortune",
    } <= kinds
    varied = {
        k: v
        for k, v in fields.items()
        if len(v) > 1 and not k.startswith(("action", "target", "ship"))
    }
    assert varied == {}


def test_outcome_and_pending_at_the_end():
    state = load_game("black_fleet").new_game(4, 2)
    bot = random.Random(2)
    while state.outcome() is None:
        request = state.pending()[0]
        state.apply(request.seat, bot.randrange(len(request.options)))
    outcome = state.outcome()
    assert state.pending() == [] and len(outcome.places) == 4 and 1 in outcome.places
    assert list(outcome.scores) == [p.money for p in state.seats]
    with pytest.raises(IllegalAction):
        state.apply(0, 0)


def test_views_and_static_info_are_json():
    game = load_game("black_fleet")
    state = game.new_game(4, 2)
    for viewer in (None, 0, 3):
        view = state.view(viewer)
        assert json.loads(json.dumps(view)) == view
    expected_view = {
        "game",
        "viewer",
        "players",
        "phase",
        "window",
        "active_seat",
        "setup_seat",
        "first_seat",
        "round",
        "round_cap",
        "turn",
        "final_round",
        "ended_by",
        "outcome",
        "seats",
        "navies",
        "ports",
        "decks",
        "current",
    }
    assert set(state.view(0)) == expected_view
    info = game.static_info()
    assert info == state.static_info() == json.loads(json.dumps(info))
    assert set(info) == {
        "game",
        "board",
        "movement_cards",
        "fortune_cards",
        "development_cards",
        "rules",
    }
    board = info["board"]
    assert len(board["spaces"]) == 86 and len(board["ports"]) == 5 and len(board["beaches"]) == 9
    assert board["spaces"][15] == {
        "id": 16,
        "row": 1,
        "col": 5,
        "neighbours": [5, 15, 27],
        "beach": None,
        "lair": False,
        "port": "T",
    }
    assert board["distant_seas"][0] == {"key": "NW", "cell": [0, 0], "entry": [1, 12]}
