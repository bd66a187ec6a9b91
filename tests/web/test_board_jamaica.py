"""Jamaica's SVG board: well-formed, true to the view it draws, private parts kept private."""

from __future__ import annotations

import json
import math
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from typing import Any

from admiralty.games import load_game
from admiralty.web.boards import board_svg

NS = {"s": "http://www.w3.org/2000/svg"}
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
GAMES = ((2, 1), (3, 2), (4, 3), (6, 4))
"""Player counts and seeds of the random games; 2 players sail with the Ghost Ship."""


@cache
def positions(players: int, seed: int) -> list[Any]:
    """Every fifth position of a random game, every battle, and its end (states, cloned)."""
    state, rng = load_game("jamaica").new_game(players, seed), random.Random(seed)
    kept, step = [], 0
    while state.outcome() is None:
        request = state.pending()[0]
        state.apply(request.seat, rng.randrange(len(request.options)))
        step += 1
        if step % 5 == 0 or state.view(None)["combat"]:
            kept.append(state.clone())
    return [*kept, state]


def sample(every: int) -> Iterator[Any]:
    """Every `every`-th kept position of each game, and its end."""
    for players, seed in GAMES:
        kept = positions(players, seed)
        yield from kept[::every]
        yield kept[-1]


def parse(view: dict[str, Any], names: list[str]) -> ET.Element:
    root = ET.fromstring(board_svg("jamaica", view, names))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox", ""))
    return root


def titles(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title")]


def find(root: ET.Element, cls: str, **data: object) -> list[ET.Element]:
    """The <g> elements of class `cls` with the given data-* attributes."""
    found = []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if cls in (g.get("class") or "").split() and all(
            g.get(f"data-{k}") == str(v) for k, v in data.items()
        ):
            found.append(g)
    return found


def centre(shape: ET.Element) -> tuple[float, float]:
    """The middle of a space's circle, square or diamond, or of a ship's hull."""
    tag = shape.tag.split("}")[1]
    if tag == "circle":
        return float(shape.get("cx", 0)), float(shape.get("cy", 0))
    if tag == "rect":
        return (
            float(shape.get("x", 0)) + float(shape.get("width", 0)) / 2,
            float(shape.get("y", 0)) + float(shape.get("height", 0)) / 2,
        )
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", shape.get("points", ""))]
    if tag == "polygon":
        return sum(numbers[0::2]) / len(numbers[0::2]), sum(numbers[1::2]) / len(numbers[1::2])
    x, y = (float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", shape.get("d", ""))[:2])
    return x + 11, y + 6.5  # a hull's path starts at its top left corner


def first_shape(g: ET.Element) -> ET.Element:
    return next(child for child in g if not child.tag.endswith("title"))


def test_every_position_draws_a_well_formed_board_with_each_ship_at_its_space():
    """Each seat's ship (and the Ghost's) is drawn next to the space the view puts it on,
    with the seat's glyph; the round is in the board's name."""
    for state in sample(2):
        view = state.view(None)
        root = parse(view, NAMES[: state.players])
        assert f"round {view['round']}" in root.get("aria-label", "")
        ships = [(str(p["seat"]), p) for p in view["players"]]
        for seat, player in ships:
            (token,) = find(root, "ship", seat=seat, space=player["space"])
            glyph = [t.text for t in token.iter("{http://www.w3.org/2000/svg}text")]
            assert glyph == [str(int(seat) + 1)]
            assert _near(token, root, player["space"])
        ghosts = find(root, "ghost", space=view["ghost"]["space"]) if view["ghost"] else []
        assert len(ghosts) == (1 if view["ghost"] else 0)
        assert all(_near(g, root, view["ghost"]["space"]) for g in ghosts)


def _near(token: ET.Element, root: ET.Element, space: int) -> bool:
    (drawn,) = find(root, "space", space=space)
    (sx, sy), (tx, ty) = centre(first_shape(drawn)), centre(first_shape(token))
    return math.hypot(sx - tx, sy - ty) < 90


def test_panels_show_each_ships_holds_doubloons_and_treasures():
    """A hold's tooltip names its goods and count; the doubloons are the gold in the holds;
    face-down treasures are drawn as many backs as the view counts."""
    for state in positions(3, 2)[::4] + positions(2, 1)[::4]:
        view = state.view(None)
        root = parse(view, NAMES[: state.players])
        panels = find(root, "player")
        fleet = [*view["players"], *([view["ghost"]] if view["ghost"] else [])]
        assert len(panels) == len(fleet)
        for panel, ship in zip(panels, fleet, strict=True):
            said = titles(panel)
            for i, hold in enumerate(ship["holds"]):
                (line,) = [t for t in said if t.startswith(f"hold {i + 1}")]
                assert line.endswith(
                    f"{hold['count']} {_goods(hold['kind'])}" if hold["kind"] else "empty"
                )
            gold = sum(h["count"] for h in ship["holds"] if h["kind"] == "gold")
            assert f"{gold} doubloons in the holds" in said
            backs = said.count("face-down treasure")
            assert backs == (0 if ship["treasures"] is not None else ship["face_down_treasures"])


def _goods(kind: str) -> str:
    return {"gold": "doubloons"}.get(kind, kind)


def test_the_track_shows_treasures_waiting_and_the_dice():
    """Lairs whose treasure is still there are marked; the dice are drawn as the view
    has them (placed morning and evening, or just rolled)."""
    for state in positions(4, 3)[::6]:
        view = state.view(None)
        said = titles(parse(view, NAMES[:4]))
        waiting = {int(m) for t in said for m in re.findall(r"Space (\d+).*treasure waits", t)}
        assert waiting == set(view["lairs_with_treasure"])
        dice = view["dice"]
        if dice["morning"] is not None:
            assert f"morning die: {dice['morning']}" in said
            assert f"evening die: {dice['evening']}" in said
        elif dice["rolled"]:
            assert sorted(t for t in said if t.startswith("rolled die")) == sorted(
                f"rolled die: {value}" for value in dice["rolled"]
            )


def test_a_battle_is_marked_at_its_space():
    battles = [s for s in sample(1) if s.view(None)["combat"]]
    assert battles
    for state in battles[:10]:
        combat = state.view(None)["combat"]
        root = parse(state.view(None), NAMES[: state.players])
        assert f"A battle at space {combat['space']}" in titles(root)


def test_a_seats_hand_chosen_card_and_treasures_are_drawn_only_in_its_own_view():
    """[jamaica §12] The seat's view draws its hand, its face-up chosen card and its
    treasures' values; the public view of the same position draws none of them."""
    private = re.compile(r"in hand|^card \d+ chosen|treasure card worth")
    seen = set()
    for state in sample(5):
        if state.phase == "game_over":
            continue  # at the end every treasure is shown to all
        public = [t for t in titles(parse(state.view(None), NAMES)) if private.search(t)]
        assert public == []
        for seat in range(state.players):
            view = state.view(seat)
            said = [t for t in titles(parse(view, NAMES)) if private.search(t)]
            me = view["players"][seat]
            hand = [t for t in said if "in hand" in t]
            assert sorted(hand) == sorted(_card_title(c, "in hand") for c in me["hand"])
            if me["chosen_card"] is not None and me["revealed_card"] is None:
                assert any(t.startswith(f"card {me['chosen_card']} chosen") for t in said)
                seen.add("chosen")
            if me["treasures"]:
                seen.add("treasures")
                worth = [t for t in said if "worth" in t]
                assert worth == [f"treasure card worth {v:+d}" for v in me["treasures"]]
    assert seen == {"chosen", "treasures"}


@cache
def _cards() -> dict[int, dict[str, str]]:
    return {c["id"]: c for c in load_game("jamaica").static_info()["cards"]}


def _card_title(card: int, role: str) -> str:
    words = {"forward": "sail forward", "backward": "sail back"}
    morning, evening = (
        words.get(_cards()[card][half], f"load {_goods(_cards()[card][half])}")
        for half in ("morning", "evening")
    )
    return f"card {card} {role}: morning {morning}, evening {evening}"


def test_the_same_view_gives_the_same_bytes_whatever_its_key_order():
    for state in positions(6, 4)[::10]:
        view = state.view(2)
        shuffled = _reversed_keys(json.loads(json.dumps(view)))
        assert board_svg("jamaica", view, NAMES) == board_svg("jamaica", shuffled, NAMES)


def _reversed_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _reversed_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(v) for v in value]
    return value


def test_markup_in_a_bot_name_is_escaped():
    name = '<script>alert("x")</script> & Co'
    state = positions(2, 1)[3]
    drawn = board_svg("jamaica", state.view(None), [name, "Bo"])
    assert "<script>" not in drawn
    root = ET.fromstring(drawn)
    assert any(t.startswith(f"1 {name}") for t in titles(root))
