"""Boards that explain themselves: a legend of every glyph (and the docs list the same),
space numbers on Jamaica's track, names from the game data, the score and its parts, and
the HTML and SVG exports."""

from __future__ import annotations

import asyncio
import io
import random
import re
from html import unescape
from pathlib import Path

import pytest
from e2e_helpers import REPO, ScriptedBot, play
from rich.console import Console
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.console import black_fleet, blackbeard, jamaica
from admiralty.console.feeds import export, replay_screen
from admiralty.console.interactive import KEYS_HELP
from admiralty.console.screen import MatchScreen, seat_names
from admiralty.games import load_game

DOC = (REPO / "docs" / "console.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("renderer", [jamaica, black_fleet, blackbeard])
def test_the_legend_on_screen_and_in_the_docs_names_every_glyph(renderer):
    game = renderer.__name__.rsplit(".", 1)[1]
    state = load_game(game).new_game(3, 1)
    screen = MatchScreen(game, load_game(game).static_info(), ["a", "b", "c"], legend=True)
    screen.update(view=state.view(None))
    console = Console(width=200, height=80, file=io.StringIO(), color_system=None)
    console.print(screen)
    shown = " ".join(console.file.getvalue().split())
    for glyph, meaning in renderer.LEGEND:
        assert f"{glyph} {meaning}" in shown
        assert f"- `{glyph}` {meaning}\n" in DOC
    assert KEYS_HELP in DOC


@pytest.mark.parametrize("renderer", [jamaica, black_fleet, blackbeard])
@pytest.mark.parametrize(("width", "height"), [(200, 80), (80, 24)])
def test_every_mark_on_the_board_is_in_the_legend(renderer, width, height):
    """Mid-game boards of random 4-player games, in full and compact: every sign that is
    not a letter or a digit is in the legend (Blackbeard: every code in capitals too, or a
    pirate's, which the legend explains)."""
    game = renderer.__name__.rsplit(".", 1)[1]
    legend = " ".join(f"{glyph} {meaning}" for glyph, meaning in renderer.LEGEND)
    codes = set(re.findall(r"\w+", " ".join(glyph for glyph, _ in renderer.LEGEND)))
    pirates = {pirate["id"] for pirate in load_game("blackbeard").static_info()["pirates"]}
    for seed in range(3):
        state, rng = load_game(game).new_game(4, seed), random.Random(seed)
        for _ in range(250):
            if state.outcome() is not None:
                break
            request = state.pending()[0]
            state.apply(request.seat, rng.randrange(len(request.options)))
        screen = MatchScreen(game, load_game(game).static_info(), ["a", "b", "c", "d"])
        screen.update(view=state.view(None))
        console = Console(width=width, height=height, file=io.StringIO(), color_system=None)
        console.print(screen)
        board = console.file.getvalue().split("╭─ log")[0]
        assert not {c for c in board if not (c.isalnum() or c.isspace() or c in legend)}
        if renderer is blackbeard:
            assert not set(re.findall(r"\b[A-Z][A-Z0-9]?\b", board)) - codes - pirates


def test_blackbeards_legend_names_the_sea_areas_as_the_game_data_does():
    board = load_game("blackbeard").static_info()
    areas, meaning = next(entry for entry in blackbeard.LEGEND if entry[0].startswith("NA"))
    assert areas.split() == [area["id"] for area in board["areas"]]
    assert meaning.endswith(", ".join(area["name"] for area in board["areas"]))
    transits, meaning = next(entry for entry in blackbeard.LEGEND if entry[0] == "T1 T2")
    assert transits.split() == [box["id"] for box in board["transits"]]
    assert meaning.endswith(" and ".join(box["name"] for box in board["transits"]))


def test_jamaicas_ruler_numbers_the_spaces_where_the_ships_stand():
    game = load_game("jamaica")
    state = game.new_game(3, 2)
    for _ in range(40):
        request = state.pending()[0]
        state.apply(request.seat, 0)
    view = state.view(None)
    rows = jamaica.track(view, game.static_info()).plain.splitlines()
    ruler, ships = rows[0], rows[3]
    for number in range(0, 50, 10):
        assert ruler[6 + number : 6 + number + len(str(number))] == str(number)
    for player in view["players"]:
        assert ships[6 + player["space"]] in (str(player["seat"]), "2", "3")


def test_treasures_are_named_as_in_the_game_data():
    names = seat_names(["red", "blue"])
    line = jamaica.describe(
        {"kind": "treasure_drawn", "data": {"ship": 0, "space": 9, "treasure": "sarans_sabre"}},
        names,
    )
    assert line.plain == "red finds Saran's Sabre at 9"
    spoils = jamaica.describe(
        {
            "kind": "spoils",
            "data": {"winner": 1, "loser": 0, "loot": "treasure", "treasure": "morgans_map"},
        },
        names,
    )
    assert spoils.plain == "— blue takes Morgan's Map"


def test_black_fleets_final_table_shows_doubloons_and_what_ranks_before_them():
    game = load_game("black_fleet")
    state = game.new_game(3, 1)
    view = dict(state.view(None))
    view["seats"] = [dict(seat) for seat in view["seats"]]
    view["seats"][1]["victory_bought"] = True
    view["seats"][2]["development"] = [{"cost": 5, "bought": True}, {"cost": 8, "bought": True}]
    screen = MatchScreen("black_fleet", game.static_info(), ["a", "b", "c"])
    screen.update(view=view)
    screen.finish(
        {
            "placements": [
                {"seat": 1, "bot": "b", "place": 1, "score": 1},
                {"seat": 2, "bot": "c", "place": 2, "score": 2},
                {"seat": 0, "bot": "a", "place": 3, "score": 9},
            ]
        }
    )
    console = Console(width=100, file=io.StringIO(), color_system=None)
    console.print(screen.result_table())
    rows = [line.replace("│", " ").split() for line in console.file.getvalue().splitlines()]
    assert ["place", "seat", "bot", "doubloons", "ransom", "developments"] in [
        line.replace("┃", " ").split() for line in console.file.getvalue().splitlines()
    ]
    assert ["1", "1", "b", "1", "paid", "0"] in rows
    assert ["2", "2", "c", "2", "-", "2"] in rows


def test_export_writes_a_titled_page_of_the_final_screen_the_legend_and_the_whole_log(
    tmp_path: Path,
):
    """Written at once: the replay is not played, nor its frames printed, first. (A replay
    writes its .html as the web viewer; `play --watch` and `watch` write this page.)"""
    record = tmp_path / "m.jsonl.gz"
    report = asyncio.run(
        play(
            [ScriptedBot("a", lambda r: 0), ScriptedBot("b", lambda r: 0)],
            seed=4,
            record_path=record,
        )
    )
    html, svg, viewer = tmp_path / "m.html", tmp_path / "m.svg", tmp_path / "viewer.html"
    export(replay_screen(record, None), html, 100, 40)
    for target in (svg, viewer):
        result = CliRunner().invoke(app, ["replay", str(record), "--export", str(target)])
        assert result.exit_code == 0, result.output
        assert result.output == f"exported: {target}\n"
    first, second = sorted(range(2), key=lambda seat: report.places[seat])
    title = (
        f"jamaica · a, b · seed 4 · match {report.spec.match_id} · 1. "
        f"{'ab'[first]} {report.scores[first]}, {report.places[second]}. "
        f"{'ab'[second]} {report.scores[second]}"
    )
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert f"<title>{title}</title>" in page
    final, log = page.split("the whole log")
    assert "Game over:" in final and "Round 1<" in log and "Game over:" in log
    shown = " ".join(unescape(re.sub("<[^>]+>", "", final)).split())
    assert all(f"{glyph} {meaning}" in shown for glyph, meaning in jamaica.LEGEND)
    assert svg.read_text().startswith("<svg")
    assert title.replace(" ", "&#160;") in svg.read_text()
    assert f"<title>{title}</title>" in viewer.read_text()
    wrong = CliRunner().invoke(app, ["replay", str(record), "--export", str(tmp_path / "m.png")])
    assert wrong.exit_code == 2
    assert (
        wrong.output == f"error: --export {tmp_path / 'm.png'}: the file must end in .html "
        "or .svg\n"
    )


def test_a_seats_secrets_name_its_own_hidden_cards():
    fleet = load_game("black_fleet")
    info = fleet.static_info()
    view = fleet.new_game(3, 1).view(2)
    me = view["seats"][2]
    text = " ".join(line.plain for line in black_fleet.secrets(view, 2, info))
    titles = {card["id"]: card["title"] for card in info["fortune_cards"]}
    moves = {card["id"]: card for card in info["movement_cards"]}
    for card in me["movement_hand"]:
        c = moves[card]
        assert (
            f"{card} ({c['navy']} navy {c['navy_move']}, pirate {c['pirate']}, "
            f"merchant {c['merchant']})" in text
        )
    for card in me["fortune_hand"]:
        assert f"{card} {titles[card]}" in text
    assert all(d["title"] in text for d in me["development"])
    beard = load_game("blackbeard")
    view = beard.new_game(2, 3).view(1)
    text = " ".join(line.plain for line in blackbeard.secrets(view, 1, beard.static_info()))
    titles = {card["number"]: card["title"] for card in beard.static_info()["events"]}
    assert view["players"][1]["hand"]
    assert all(f"“{titles[card]}”" in text for card in view["players"][1]["hand"])
