"""Fixtures for the Black Fleet tests (helpers live in fleet_helpers.py)."""

from __future__ import annotations

import pytest

from admiralty.games import load_game
from admiralty.games.black_fleet.state import BlackFleetState


@pytest.fixture(scope="session")
def game():
    return load_game("black_fleet")


@pytest.fixture
def fresh(game):
    """A factory of new games (default: 4 players, seed 7), waiting for seat 0's placement."""

    def make(players: int = 4, seed: int = 7, **options) -> BlackFleetState:
        return game.new_game(players, seed, options or None)

    return make
