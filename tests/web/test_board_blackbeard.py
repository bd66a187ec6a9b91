"""Blackbeard's SVG board: every piece where the view puts it, each seat's panel, nothing
hidden drawn from a public view, the same bytes for the same view, markup escaped."""

from __future__ import annotations

import copy
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from typing import Any, NamedTuple

import pytest

from admiralty.games import load_game
from admiralty.games.blackbeard.data import load
from admiralty.web.boards import board_svg
from admiralty.web.boards.svg import seat_fill, seat_glyph

NS = "{http://www.w3.org/2000/svg}"
DATA = load()
PLAYER_COUNTS = (1, 2, 3, 5, 10)


def play(players: int, seed: int, every: int = 30, options=None) -> Iterator[Any]:
    """The state of a random game every `every` decisions, and at its end."""
    game = load_game("blackbeard")
    state, rng = game.new_game(players, seed, options), random.Random(seed)
    step = 0
    while state.outcome() is None:
        if step % every == 0:
            yield state
        request = state.pending()[0]
        state.apply(request.seat, rng.randrange(len(request.options)))
        step += 1
    yield state


class Position(NamedTuple):
    """A game's public view and one seat's view, each with its drawing, parsed."""

    public: dict[str, Any]
    drawn: str
    root: ET.Element
    seat: int
    seat_view: dict[str, Any]
    seat_root: ET.Element


@cache
def positions() -> tuple[Position, ...]:
    """Many steps of games of every size, each with a seat's view (a different seat from
    step to step), drawn once for all the tests."""
    out = []
    for players in PLAYER_COUNTS:
        for seed in (1, 2):
            for state in play(players, seed):
                public = state.view(None)
                seat = public["turn"] % players
                mine = state.view(seat)
                drawn = draw(public)
                out.append(Position(public, drawn, parse(drawn), seat, mine, parse(draw(mine))))
    return tuple(out)


def names(count: int) -> list[str]:
    return [f"bot-{seat_glyph(i)}" for i in range(count)]


def parse(drawing: str) -> ET.Element:
    return ET.fromstring(drawing)


def classes(node: ET.Element) -> list[str]:
    return (node.get("class") or "").split()


def find(root: ET.Element, *wanted: str) -> list[ET.Element]:
    """Every element whose classes include all of `wanted`."""
    return [n for n in root.iter() if set(wanted) <= set(classes(n))]


def one(root: ET.Element, *wanted: str) -> ET.Element:
    found = find(root, *wanted)
    assert len(found) == 1, (wanted, len(found))
    return found[0]


def tooltip(node: ET.Element) -> str:
    first = node.find(f"{NS}title")
    return first.text or "" if first is not None else ""


def texts(node: ET.Element) -> list[str]:
    return [t.text or "" for t in node.iter(f"{NS}text")]


def draw(view: dict[str, Any], seats: list[str] | None = None) -> str:
    return board_svg("blackbeard", view, seats or names(len(view["players"])))


def test_every_drawing_is_an_svg_of_one_size_per_game():
    sizes: dict[int, set[str]] = {}
    for position in positions():
        for root in (position.root, position.seat_root):
            assert root.tag == f"{NS}svg"
            box = root.get("viewBox", "").split()
            assert box[:3] == ["0", "0", "600"] and float(box[3]) > 600
            assert "style" not in {a for n in root.iter() for a in n.attrib}
            assert not list(root.iter(f"{NS}style"))
            count = len(position.public["players"])
            sizes.setdefault(count, set()).add(root.get("viewBox", ""))
    assert all(len(boxes) == 1 for boxes in sizes.values()), sizes


def test_every_area_and_port_is_on_the_map():
    root = positions()[0].root
    for location in [*DATA.areas, *DATA.transits]:
        cell = one(root, f"area-{location}")
        assert tooltip(cell).startswith(_place(location))
    for code, port in DATA.ports.items():
        row = one(one(root, f"area-{port.areas[0]}"), f"port-{code}")
        assert port.name in texts(row)
        assert bool(find(row, "pirate-port")) == port.pirate_port


def _place(location: str) -> str:
    if location in DATA.areas:
        return DATA.areas[location].name
    return f"Transit box {location}"


def test_pirates_kcs_and_warships_stand_where_the_view_puts_them():
    seen = {"at sea": 0, "in port": 0, "kcs": 0, "warships": 0}
    for public, _, root, *_ in positions():
        for pirate in public["pirates"]:
            cell = one(root, f"area-{pirate['area']}")
            if pirate["port"] is None:
                where, seen["at sea"] = one(cell, "at-sea"), seen["at sea"] + 1
            else:
                port = DATA.ports[pirate["port"]]
                assert pirate["area"] in port.areas
                cell = one(root, f"area-{port.areas[0]}")
                where, seen["in port"] = one(cell, f"port-{port.code}"), seen["in port"] + 1
            chip = [
                p
                for p in find(where, "pirate", f"seat-{pirate['owner']}")
                if tooltip(p).startswith(f"{DATA.pirates[pirate['id']].name} ({pirate['id']})")
            ]
            assert len(chip) == 1, pirate
            assert seat_glyph(pirate["owner"]) in texts(chip[0])
            fills = {n.get("fill") for n in chip[0].iter()}
            assert seat_fill(pirate["owner"]) in fills
        for kc in public["kcs"]:
            crowns = find(one(one(root, f"area-{kc['area']}"), "at-sea"), "kc")
            mine = [c for c in crowns if DATA.kcs[kc["id"]].name in tooltip(c)]
            assert len(mine) == 1
            mark = "C" if kc["owner"] is None else seat_glyph(kc["owner"])
            assert mark in texts(mine[0])
            seen["kcs"] += 1
        for area, warship in public["patrols"].items():
            ship = one(one(root, f"area-{area}"), "warship")
            assert DATA.warships[warship].name in tooltip(ship) and "W" in texts(ship)
            seen["warships"] += 1
        assert len(find(root, "warship")) == len(public["patrols"])
    assert all(seen.values()), seen


def test_ports_show_their_merchant_governor_and_damage():
    for public, _, root, *_ in positions()[::3]:
        merchants = {m["port"]: m for m in public["merchants"]}
        states = {p["code"]: p for p in public["ports"]}
        for code in DATA.ports:
            row = find(root, f"port-{code}")[0]
            merchant, state = merchants.get(code), states.get(code, {})
            boxes = find(row, "merchant")
            assert len(boxes) == (merchant is not None)
            if merchant:
                shown = str(merchant["cargo_value"]) if merchant["face_up"] else "?"
                assert texts(boxes[0]) == [shown]
            side = state.get("side")
            assert [classes(g)[1] for g in find(row, "governor")] == ([side] if side else [])
            assert bool(find(row, "destroyed")) == bool(state.get("destroyed"))
            attacked = state.get("attacked") and not state.get("destroyed")
            assert bool(find(row, "attacked")) == bool(attacked)


def test_each_panel_holds_its_players_score_cards_and_pirates():
    for public, _, root, *_ in positions()[::2]:
        bots = names(len(public["players"]))
        for player in public["players"]:
            seat = player["seat"]
            panel = one(root, "player", f"seat-{seat}")
            words = texts(panel)
            assert bots[seat] in words and seat_glyph(seat) in words
            assert f"{player['vp']} VP" in words
            assert words.count(f"{player['event_cards']} in hand") >= 1
            lines = find(panel, "pirate-line")
            mine = sorted(p["id"] for p in public["pirates"] if p["owner"] == seat)
            assert len(lines) == len(mine)
            for line, pid in zip(lines, mine, strict=True):
                pirate = next(p for p in public["pirates"] if p["id"] == pid)
                assert any(w.startswith(DATA.pirates[pid].name) for w in texts(line))
                assert f"NP {pirate['notoriety']}" in texts(line)
                holds = [texts(h)[0] for h in find(line, "hold")]
                assert holds == [str(b) if b else "·" for b in pirate["ship"]["holds"]]


def test_a_seat_sees_its_own_hand_and_the_public_drawing_none():
    checked = 0
    for public, shown, root, seat, view, seat_root in positions():
        if public.get("crown"):
            continue  # the Crown's Threat Row shows Event titles to everyone
        assert not find(root, "hand-card") and not find(root, "hand-pirates")
        mine = view["players"][seat]
        panel = one(seat_root, "player", f"seat-{seat}")
        titles = [DATA.events[n].title for n in mine["hand"]]
        cards = find(panel, "hand-card")
        assert [tooltip(c).split(": ", 1)[1] for c in cards] == titles
        crews = [DATA.pirates[p].name for p in mine["pirate_hand"]]
        if crews:
            assert tooltip(one(panel, "pirate-cards")) == "Pirate cards: " + ", ".join(crews)
        assert all(p["hand"] is None for i, p in enumerate(view["players"]) if i != seat)
        for secret in [*titles, *crews]:
            assert secret not in shown
            checked += 1
    assert checked > 50


def test_the_same_view_gives_the_same_bytes_whatever_its_key_order():
    for position in positions()[::12]:
        for view in (position.public, position.seat_view):
            assert draw(view) == draw(copy.deepcopy(view)) == draw(_reversed(view))


def _reversed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _reversed(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed(v) for v in value]
    return value


def test_markup_in_a_bot_name_is_escaped():
    public = positions()[3].public
    bots = ['<b>"x"&', *names(len(public["players"]))[1:]]
    drawing = draw(public, bots)
    assert '<b>"x"&' not in drawing
    panel = one(parse(drawing), "player", "seat-0")
    assert '<b>"x"&' in texts(panel)


def test_lanes_follow_the_games_map():
    removable = sum(1 for edge in DATA.edges if edge.removable)
    assert removable
    for extra in (True, False):
        state = next(play(3, 1, options={"map_extra_edges": extra}))
        root = parse(draw(state.view(None)))
        edges = [e.between for e in DATA.edges if extra or not e.removable]
        assert len(find(root, "lane")) == len(edges)
        for first, second in edges:
            lane = one(root, "lane", f"lane-{first}", f"lane-{second}")
            ends = [(float(lane.get(f"x{i}", 0)), float(lane.get(f"y{i}", 0))) for i in (1, 2)]
            boxes = [_box(one(root, f"area-{loc}")) for loc in (first, second)]
            assert all(any(_inside(end, box) for end in ends) for box in boxes)


def _box(cell: ET.Element) -> tuple[float, float, float, float]:
    rect = cell.find(f"{NS}rect")
    assert rect is not None
    x, y, w, h = (float(rect.get(k, 0)) for k in ("x", "y", "width", "height"))
    return x, y, w, h


def _inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def test_a_safe_haven_and_hostages_are_drawn_in_their_owners_colour():
    public = next(p.public for p in positions() if len(p.public["pirates"]) >= 2)
    view = copy.deepcopy(public)
    pirate = view["pirates"][0]
    pirate["ship"]["hostages"] = [{"id": "H01", "nation": "spanish"}]
    code = next(c for c, p in DATA.ports.items() if not p.pirate_port)
    view["ports"] = [p for p in view["ports"] if p["code"] != code] + [
        {
            "code": code,
            "governor": None,
            "side": None,
            "destroyed": False,
            "attacked": False,
            "safe_haven": pirate["id"],
        }
    ]
    root = parse(draw(view))
    haven = one(find(root, f"port-{code}")[0], "safe-haven")
    assert {n.get("fill") for n in haven.iter()} >= {seat_fill(pirate["owner"])}
    port_title = tooltip(find(root, f"port-{code}")[0])
    assert f"Safe Haven of {DATA.pirates[pirate['id']].name}" in port_title
    line = [
        n
        for n in find(one(root, "player", f"seat-{pirate['owner']}"), "pirate-line")
        if any(w.startswith(DATA.pirates[pirate["id"]].name) for w in texts(n))
    ]
    assert "+1 hostage" in texts(line[0])


@pytest.mark.parametrize("index", [0, -1])
def test_solitaire_shows_the_crown(index):
    public, _, root, *_ = [p for p in positions() if p.public.get("crown")][index]
    panel = one(root, "crown-panel")
    crown = public["crown"]
    cards = [tooltip(c).split(": ", 1)[1] for c in find(panel, "threat-card")]
    assert cards == [DATA.events[n].title for n in crown["threat_row"]]
    for kc in crown["kcs"]:
        crowns = [c for c in find(root, "kc", "crown") if DATA.kcs[kc].name in tooltip(c)]
        assert len(crowns) == 1 and "C" in texts(crowns[0])
