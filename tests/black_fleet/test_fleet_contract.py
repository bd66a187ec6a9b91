"""The engine contract (server/admiralty/games/base.py) as Black Fleet fills it: its
declared facts, request and view shapes (tests/contract checks what every game shares)."""

from __future__ import annotations

import random

from random_play import finished

from admiralty.games import Window, load_game

FLAT = (str, int, bool, type(None))


def test_the_game_info_declares_the_rules_facts():
    """[black_fleet §16.1]: 3-4 players; hands are hidden; merchants are placed in a SETUP window
    and the rest are TURN windows; the navies are moved by the seat whose card names them, so no
    actor plays itself; the victory cost is 10, 20 in the variant, per seat if wished."""
    info = load_game("black_fleet").info
    assert (info.min_players, info.max_players, info.default_players) == (3, 4, 4)
    assert info.hidden_information and info.automated == ()
    assert set(info.windows) == {Window.SETUP, Window.TURN}
    assert info.defaults() == {"victory_cost": 10, "round_cap": 60}
    cost = info.options[0]
    assert cost.choices == (10, 20) and cost.per_seat


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


def test_the_scores_are_the_doubloons():
    state = finished("black_fleet", 4, 2)
    assert list(state.outcome().scores) == [p.money for p in state.seats]


def test_views_and_static_info_keep_their_shape():
    game = load_game("black_fleet")
    state = game.new_game(4, 2)
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
    assert info == state.static_info()
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
