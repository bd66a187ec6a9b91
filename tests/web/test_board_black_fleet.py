"""Black Fleet's SVG board: well-formed, every ship on the cell of its space (or in its
distant sea), the panels and ports saying what the view says, hidden cards only in their
seat's drawing, the same bytes for the same view, bot names escaped."""

from __future__ import annotations

import copy
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from admiralty.games import load_game
from admiralty.web.boards import board_svg
from admiralty.web.boards.black_fleet import CELL, MAP_X, MAP_Y

NS = "{http://www.w3.org/2000/svg}"
NAMES = ["Ann", "Bo", "Cy", "Di"]
GAMES = [(3, 1), (4, 2), (4, 13)]
"""(players, seed): seed 13 parks two pirates in one distant sea early on."""
STATIC = load_game("black_fleet").static_info()
SPACES = {s["id"]: (s["row"], s["col"]) for s in STATIC["board"]["spaces"]}
ZONES = {z["key"]: tuple(z["cell"]) for z in STATIC["board"]["distant_seas"]}


def positions(players: int, seed: int) -> Iterator[Any]:
    """A random game's states: densely while ships are placed, then every 40 decisions."""
    state = load_game("black_fleet").new_game(players, seed)
    rng = random.Random(seed)
    for step in range(700):
        if state.outcome() is not None:
            break
        if (step < 40 and step % 3 == 0) or step % 40 == 0:
            yield state
        request = state.pending()[0]
        state.apply(request.seat, rng.randrange(len(request.options)))
    yield state


def drawn(view: dict[str, Any], names: list[str] = NAMES) -> ET.Element:
    root = ET.fromstring(board_svg("black_fleet", view, names[: len(view["seats"])]))
    assert root.tag == f"{NS}svg"
    return root


def texts(root: ET.Element) -> list[str]:
    """Every visible text and tooltip of a drawing."""
    return [e.text or "" for e in root.iter() if e.tag in (f"{NS}text", f"{NS}title")]


def titled(root: ET.Element, prefix: str) -> list[ET.Element]:
    """The groups whose tooltip starts with `prefix`."""
    found = []
    for g in root.iter(f"{NS}g"):
        first = g[0] if len(g) else None
        if (
            first is not None
            and first.tag == f"{NS}title"
            and (first.text or "").startswith(prefix)
        ):
            found.append(g)
    return found


def centres(g: ET.Element) -> list[tuple[float, float]]:
    """The centre of each circle and polygon drawn in `g`."""
    out = []
    for e in g.iter():
        if e.tag == f"{NS}circle":
            out.append((float(e.get("cx", 0)), float(e.get("cy", 0))))
        elif e.tag == f"{NS}polygon":
            points = [tuple(map(float, p.split(","))) for p in e.get("points", "").split()]
            out.append(
                (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
            )
    return out


def assert_in_cell(g: ET.Element, cell: tuple[int, int]) -> None:
    row, col = cell
    left, top = MAP_X + col * CELL, MAP_Y + row * CELL
    points = centres(g)
    assert points
    for x, y in points:
        assert left <= x <= left + CELL and top <= y <= top + CELL, (cell, x, y)


@pytest.fixture(scope="module")
def views() -> list[list[dict[str, Any]]]:
    """Per sampled position: the public view, then each seat's."""
    out = []
    for players, seed in GAMES:
        for state in positions(players, seed):
            out.append([state.view(None), *(state.view(s) for s in range(players))])
    return out


def test_every_drawing_is_an_svg_with_a_viewbox_fixed_for_the_match(views):
    boxes: dict[int, set[str]] = {}
    for public, *seats in views:
        for view in (public, seats[0]):
            root = drawn(view)
            boxes.setdefault(len(view["seats"]), set()).add(root.get("viewBox", ""))
            assert not any(e.get("style") for e in root.iter())
            assert not list(root.iter(f"{NS}style"))
    assert all(len(found) == 1 and found != {""} for found in boxes.values()), boxes


def test_every_ship_sits_on_its_space_or_in_its_distant_sea(views):
    zoned = 0
    for public, *_ in views:
        root = drawn(public)
        for seat in public["seats"]:
            for kind in ("merchant", "pirate"):
                ship = seat[kind]
                groups = titled(root, f"{NAMES[seat['seat']]}'s {kind}")
                if ship["space"] is not None:
                    (g,) = groups
                    assert_in_cell(g, SPACES[ship["space"]])
                elif ship.get("zone"):
                    (g,) = groups
                    assert_in_cell(g, ZONES[ship["zone"]])
                    zoned += 1
                else:
                    assert groups == []
                if groups and ship["cargo"]:
                    assert f"carrying {', '.join(ship['cargo'])}" in groups[0][0].text
        for colour, space in public["navies"].items():
            (g,) = titled(root, f"{colour} navy")
            assert_in_cell(g, SPACES[space])
    assert zoned >= 2


def test_panels_and_ports_say_what_the_view_says(views):
    for public, *_ in views[::3]:
        root = drawn(public)
        for seat in public["seats"]:
            number, money = seat["seat"], seat["money"]
            (panel,) = titled(root, f"seat {number + 1}: {NAMES[number]}")
            words = [e.text for e in panel.iter(f"{NS}text")]
            assert f"{money} doubloon{'' if money == 1 else 's'}" in words
            held = f"{seat['movement_cards_held']} movement, {seat['fortune_cards_held']}/"
            assert any(held in t for t in texts(root))
        for port in public["ports"]:
            name = next(p["name"] for p in STATIC["board"]["ports"] if p["key"] == port["key"])
            (g,) = titled(root, f"{name} ({port['key']}): {port['stock']} {port['colour']}")
            assert f"{port['stock']} in stock" in [e.text for e in g.iter(f"{NS}text")]


def test_hands_and_unbought_cards_show_only_in_their_seats_drawing(views):
    checked = 0
    for public, *seats in views[::4]:
        shown = " ".join(texts(drawn(public)))
        for number, view in enumerate(seats):
            me = view["seats"][number]
            secrets = list(me["movement_hand"])
            secrets += [d["title"] for d in me["development"] if not d["bought"]]
            own = " ".join(texts(drawn(view)))
            for secret in secrets:
                assert secret in own
                assert secret not in shown
                checked += 1
    assert checked > 20


def test_the_same_view_gives_the_same_bytes_whatever_its_dicts_order(views):
    view = views[len(views) // 2][1]
    shuffled = copy.deepcopy(view)
    shuffled["navies"] = dict(reversed(list(view["navies"].items())))
    shuffled["ports"] = list(reversed(view["ports"]))
    first = board_svg("black_fleet", view, NAMES)
    assert board_svg("black_fleet", view, NAMES) == first
    assert board_svg("black_fleet", shuffled, NAMES) == first


def test_markup_in_a_bot_name_is_escaped(views):
    public = views[-1][0]
    names = ['<b onload="x">&', *NAMES[1:]]
    out = board_svg("black_fleet", public, names)
    assert "<b onload" not in out
    assert any('<b onload="x">&' in t for t in texts(ET.fromstring(out)))
