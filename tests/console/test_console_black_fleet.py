"""The Black Fleet console: the map with every ship, ports, money and cards on 80x24."""

from __future__ import annotations

import random

from rich.console import Console

from admiralty.console.black_fleet import PIRATE_LETTERS
from admiralty.console.feeds import event_json
from admiralty.console.screen import MatchScreen
from admiralty.games import load_game

NAMES = ["red", "blue", "green", "gold"]


def mid_game(seed=3, steps=300):
    game = load_game("black_fleet")
    state, rng = game.new_game(4, seed), random.Random(seed)
    screen = MatchScreen("black_fleet", game.static_info(), NAMES)
    for _ in range(steps):
        request = state.pending()[0]
        for event in state.apply(request.seat, rng.randrange(len(request.options))):
            if event.visible_to(None):
                screen.update(event_json(event))
    screen.update(view=state.view(None))
    return game, state, screen


def render(screen, width=80, height=24) -> list[str]:
    console = Console(width=width, height=height, record=True, color_system=None)
    console.print(screen)
    return console.export_text().splitlines()


def test_the_map_shows_every_ship_on_its_space_and_the_players_their_money():
    game, state, screen = mid_game()
    lines = render(screen)
    view, board = state.view(None), game.static_info()["board"]
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    assert f"round {view['round']}" in lines[0]
    where = {s["id"]: (s["row"], s["col"]) for s in board["spaces"]}
    grid = lines[1:1 + board["rows"]]
    for seat in view["seats"]:
        for kind, mark in (("merchant", str(seat["seat"])), ("pirate",
                                                             PIRATE_LETTERS[seat["seat"]])):
            if seat[kind]["space"] is not None:
                row, col = where[seat[kind]["space"]]
                assert grid[row][2 * col] == mark
        row = next(line for line in lines if f"{seat['seat']}{PIRATE_LETTERS[seat['seat']]} "
                   f"{NAMES[seat['seat']]}" in line)
        assert f" {seat['money']} " in row
    for space in view["navies"].values():
        row, col = where[space]
        assert grid[row][2 * col] == "N"
    for port in board["ports"]:
        stock = next(p["stock"] for p in view["ports"] if p["key"] == port["key"])
        assert any(port["name"] in line and f"{stock} {port['colour']}" in line for line in lines)


def test_a_narrow_terminal_keeps_the_tables_without_the_map():
    *_, screen = mid_game()
    lines = render(screen, width=60)
    assert max(len(line) for line in lines) <= 60
    assert not any("≈" in line for line in lines)
    assert any("Tortuga" in line for line in lines)
