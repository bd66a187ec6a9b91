"""Setup ([jamaica §4]) and the registered game ([jamaica §1, §2])."""

from __future__ import annotations

import pytest
from jamaica_helpers import new

from admiralty.games import Window, load_game
from admiralty.games.jamaica import Jamaica


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_ship_starts_on_port_royal_with_3_food_3_gold_and_3_cards(players):
    """[jamaica §4.1] steps 4-8: hold board, shuffled deck of 11, hand of 3, 3 food and 3
    doubloons in two holds, ship on Port Royal; the bank gives out exactly those tokens."""
    state = new(players, seed=players)
    for ship in state.ships:
        assert (ship.space, ship.lap) == (0, "pre_start")
        assert list(zip(ship.kinds, ship.counts, strict=True)) == [
            ("food", 3),
            ("gold", 3),
            (None, 0),
            (None, 0),
            (None, 0),
        ]
        assert len(ship.hand) == 3 and len(ship.deck) == 8 and ship.discard == []
        assert sorted(ship.hand + ship.deck) == list(range(1, 12))
    assert state.bank == {"gold": 80 - 3 * players, "food": 45 - 3 * players, "gunpowder": 45}
    assert state.ghost is None


def test_nine_of_twelve_treasures_are_dealt_and_a_marker_is_on_each_of_the_nine_lairs():
    """[jamaica §4.1] steps 1 and 3: 9 random cards face down, 3 back in the box unseen."""
    state = new(4, seed=3)
    assert len(state.treasure_deck) == 9 and len(state.removed) == 3
    assert len(set(state.treasure_deck + state.removed)) == 12
    assert sorted(state.lairs) == [4, 9, 11, 19, 22, 25, 33, 37, 44]
    decks = {tuple(new(4, seed=s).treasure_deck) for s in range(8)}
    assert len(decks) > 1


def test_the_first_captain_is_random_and_opens_the_first_round():
    """[jamaica §4.1] step 9 and [jamaica §5.1]: a random Captain rolls, places the dice (TURN)."""
    captains = {new(4, seed=s).captain for s in range(40)}
    assert captains == {0, 1, 2, 3}
    state = new(4, seed=5)
    [request] = state.pending()
    assert (request.seat, request.kind, request.window) == (
        state.captain,
        "place_dice",
        Window.TURN,
    )
    assert state.round == 1 and state.phase == "place_dice"


def test_two_players_add_the_ghost_ship_with_5_and_3_gold_and_lady_beth_out_first():
    """[jamaica §4.2, G23]: the Ghost starts on Port Royal with 5 + 3 doubloons and Lady Beth,
    which is taken out before the 9 cards are dealt (so it is neither dealt nor boxed)."""
    state = new(2, seed=1)
    ghost = state.ghost
    assert (ghost.space, ghost.lap) == (0, "pre_start")
    assert list(zip(ghost.kinds, ghost.counts, strict=True))[:2] == [("gold", 5), ("gold", 3)]
    assert "lady_beth" not in state.treasure_deck + state.removed
    assert len(state.treasure_deck) == 9 and len(state.removed) == 2
    assert state.bank == {"gold": 80 - 6 - 8, "food": 45 - 6, "gunpowder": 45}
    assert state.view(None)["ghost"]["has_lady_beth"] is True


def test_the_game_info_declares_the_rules_facts():
    """[jamaica §1]: 2 to 6 players; hands and face-down treasures are hidden; cards are chosen in a
    SEALED window, defenders react in INTERRUPT ones; the variant options are [jamaica G6, G16] and
    the round cap ([jamaica §9.5])."""
    info = load_game("jamaica").info
    assert (info.min_players, info.max_players, info.default_players) == (2, 6, 4)
    assert info.hidden_information
    assert set(info.windows) == {Window.TURN, Window.INTERRUPT, Window.SEALED}
    assert info.defaults() == {
        "allow_dump_same_kind": False,
        "give_any_treasure": False,
        "round_cap": 200,
    }


def test_the_ghost_ship_sails_in_exactly_the_declared_player_counts():
    """[jamaica §10]: the Ghost Ship, the one automated actor, sails in 2-player games only."""
    (ghost,) = load_game("jamaica").info.automated
    assert ghost.name == "Ghost Ship" and ghost.players == (2,)
    for players in range(2, 7):
        state = load_game("jamaica").new_game(players, seed=0)
        assert (state.view(None)["ghost"] is not None) == (players in ghost.players)


def test_the_static_board_comes_from_the_data_files():
    """[jamaica §3.2, G1] (data/track.toml): 50 spaces, 3 forks, the finish values, sent once."""
    board = Jamaica.board()
    spaces = board["spaces"]
    assert len(spaces) == 50 and board["port_royal"] == 0
    assert [s["id"] for s in spaces if len(s["next"]) == 2] == [6, 19, 32]
    assert [s["score"] for s in spaces[41:]] == [2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert spaces[0]["score"] == 15 and spaces[40]["score"] == -5
    assert spaces[45] == {
        "id": 45,
        "kind": "port",
        "cost": 7,
        "pays": "gold",
        "score": 6,
        "lane": "main",
        "fork": None,
        "next": [46],
    }
    assert board["lap_length"] == 32
    info = Jamaica().static_info()
    assert info["spaces"] == spaces and info["port_royal"] == 0
    assert len(info["cards"]) == 11 and len(info["treasures"]) == 12
    assert info["combat_die"] == [2, 4, 6, 8, 10, "star"]
    assert load_game("jamaica").rules_hash() == load_game("jamaica").rules_hash()
