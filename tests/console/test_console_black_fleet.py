"""The Black Fleet console: the map with every ship, ports, money and cards on 80x24;
coordinates in the margins that the log's moves use; a glyph per navy and cube colour."""

from __future__ import annotations

import random

from rich.console import Console

from admiralty.console.black_fleet import (
    NAVY_GLYPHS,
    PIRATE_LETTERS,
    _cubes,
    coordinate,
    describe,
)
from admiralty.console.screen import MatchScreen
from admiralty.games import load_game
from admiralty.referee.timeline import event_json

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
    assert lines[1].startswith("   ABCDEFGHIJKLM ")  # 80 columns: the dense map
    grid = lines[2 : 2 + board["rows"]]
    assert [line[:3] for line in grid] == [f"{r + 1:>2} " for r in range(board["rows"])]
    for seat in view["seats"]:
        for kind, mark in (
            ("merchant", str(seat["seat"])),
            ("pirate", PIRATE_LETTERS[seat["seat"]]),
        ):
            if seat[kind]["space"] is not None:
                row, col = where[seat[kind]["space"]]
                assert grid[row][3 + col] == mark
                letter, number = (
                    coordinate(seat[kind]["space"])[0],
                    coordinate(seat[kind]["space"])[1:],
                )
                assert (lines[1][3 + col], grid[row][:2].strip()) == (letter, number)
        row = next(
            line
            for line in lines
            if f"{seat['seat']}{PIRATE_LETTERS[seat['seat']]} {NAMES[seat['seat']]}" in line
        )
        assert f" {seat['money']} " in row
    for colour, space in view["navies"].items():
        row, col = where[space]
        assert grid[row][3 + col] == NAVY_GLYPHS[colour]
    for port in board["ports"]:
        stock = next(p["stock"] for p in view["ports"] if p["key"] == port["key"])
        assert any(port["name"] in line and f"{stock} {port['colour']}" in line for line in lines)


def test_a_narrow_terminal_keeps_the_map_above_the_tables():
    *_, screen = mid_game()
    lines = render(screen, width=60, height=40)
    assert max(len(line) for line in lines) <= 60
    assert lines[1] == "   A B C D E F G H I J K L M"
    assert any("Tortuga" in line for line in lines)


def test_moves_in_the_log_name_the_spaces_by_the_maps_coordinates():
    game, _, screen = mid_game()
    board = game.static_info()["board"]["spaces"]
    corner = next(s["id"] for s in board if (s["row"], s["col"]) == (6, 0))
    line = describe(
        {"kind": "ship_moved", "data": {"ship": "navy:purple", "from": corner, "to": None}},
        screen.names,
    )
    assert line.plain == "purple navy sails A7 → off the map"


def test_without_colour_every_cube_colour_and_navy_has_a_glyph_of_its_own():
    assert len(set(NAVY_GLYPHS.values())) == 2
    assert _cubes(["yellow", "red", "green", "blue", "purple"]).plain == "yrgbp"
