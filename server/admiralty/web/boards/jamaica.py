"""Jamaica's board as SVG: the race track around the island, the ships, and the players.

The track's spaces ring the island in race order, Port Royal at the bottom; each fork's
outer lane is on the ring and its short inner lane cuts inside it. A space's shape says its
kind (a circle of sea costs food, a square port costs gold, a diamond is a pirate lair,
starred while its treasure waits) and its number the cost; space numbers are written
inside the ring, and the white tags are the spaces that score at the end. Ships stack
outward from their space, each seat's in its colour with its glyph; the Ghost Ship is grey
with a "G". The island shows the round, the Captain, the dice, the bank and a battle under
way. Below, one panel per ship: its position, holds, doubloons, powers, treasures, the card
it played and, in a seat's own view, its hand and chosen card.

The track comes from the game's static data, so a corrected data file redraws the board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from admiralty.games import load_game
from admiralty.web.boards.svg import el, group, seat_fill, seat_glyph, svg, text, title

GHOST = -1
"""The Ghost Ship's id in battles, as the engine numbers it."""

WIDTH = 600
LEFT, TOP, RIGHT, BOTTOM, CORNER = 64.0, 74.0, 536.0, 390.0, 92.0
"""The ring of the track: a rounded rectangle."""
PORT_ROYAL_X = 420.0
"""Port Royal on the south coast, to the east as on the island; the last spaces of the
lap, which score, run along the south coast before it."""
SPACE_R = 13.0
PORT_ROYAL_R = 18.0
INNER_INSET = 46.0
"""How far inside the ring an inner lane runs."""
LABEL_INSET = 22.0
SCORE_INSET = 36.0
SHIP_W, SHIP_H = 24.0, 15.0
"""The room a ship takes on the track: ships stack outward from their space by it."""
SHIPS_PER_COLUMN = 2
ROUND_Y = 188
"""The top line of what the island shows about the round."""
TRACK_HEIGHT = 494
LEGEND_Y = 484
LEGEND_CHAR = 5.6
"""The width of a letter of the legend, to space its items."""
PANEL_TOP = 500
ROW_HEIGHT = 72
NAME_CHARS = 14
CARD_W, CARD_H = 20, 36
TREASURE_ROOM = 36.0
"""How far the treasure cards of a panel may spread before they overlap."""

SEA, SAND, LAND, INK, MUTED = "#cfe8f3", "#f3e3b5", "#9cc98a", "#1f2933", "#52606d"
KIND_FILLS = {"sea": "#2f7fb5", "port": "#e9c46a", "lair": "#3d3d3d", "port_royal": "#b23a48"}
KIND_NAMES = {"sea": "sea", "port": "port", "lair": "pirate lair", "port_royal": "Port Royal"}
GOODS = {
    "gold": ("#f2b705", "doubloons"),
    "food": ("#4f9d45", "food"),
    "gunpowder": ("#c0392b", "gunpowder"),
}
"""Fill and name of each kind of goods; their shapes are in `_goods_icon`."""
SYMBOL_NAMES = {"forward": "sail forward", "backward": "sail back"}
POWER_LETTERS = {"hand_size": "Map", "reroll": "Sab", "combat_bonus": "Bth", "extra_hold": "+6"}
LAP_WORDS = {"pre_start": ", before the start line"}
"""What a lap state adds to a ship's space; a finished ship is home at Port Royal."""

Point = tuple[float, float]


@cache
def _static() -> dict[str, Any]:
    return load_game("jamaica").static_info()


def draw(view: Mapping[str, Any], seats: Sequence[str]) -> str:
    """The whole board: the track with its ships, then a panel per ship."""
    board = _static()
    layout = _layout()
    rows = len(view["players"]) + (1 if view.get("ghost") else 0)
    height = PANEL_TOP + rows * ROW_HEIGHT + 6
    return svg(
        WIDTH,
        height,
        f"Jamaica, round {view['round']}",
        [
            el("rect", x=0, y=0, width=WIDTH, height=TRACK_HEIGHT, fill=SEA),
            _island(),
            _lanes(board, layout),
            _spaces(view, board, layout),
            _ships(view, seats, layout),
            _battle_mark(view, layout),
            _round_info(view, seats),
            _legend(),
            _panels(view, seats, board),
        ],
        font_family="DejaVu Sans, Verdana, sans-serif",
    )


# ---------------------------------------------------------------- geometry


def _ring_length() -> float:
    return 2 * (RIGHT - LEFT - 2 * CORNER) + 2 * (BOTTOM - TOP - 2 * CORNER) + 2 * math.pi * CORNER


def _on_ring(s: float) -> tuple[Point, Point]:
    """The point at arc length `s` along the ring (from Port Royal, heading east) and the
    outward normal there."""
    s %= _ring_length()
    height = BOTTOM - TOP - 2 * CORNER
    quarter = math.pi * CORNER / 2
    near, far = (LEFT + CORNER, TOP + CORNER), (RIGHT - CORNER, BOTTOM - CORNER)
    corners = (far, (far[0], near[1]), near, (near[0], far[1]))
    straights = (
        ((PORT_ROYAL_X, BOTTOM), (1.0, 0.0), RIGHT - CORNER - PORT_ROYAL_X),
        ((RIGHT, BOTTOM - CORNER), (0.0, -1.0), height),
        ((RIGHT - CORNER, TOP), (-1.0, 0.0), RIGHT - LEFT - 2 * CORNER),
        ((LEFT, TOP + CORNER), (0.0, 1.0), height),
        ((LEFT + CORNER, BOTTOM), (1.0, 0.0), PORT_ROYAL_X - LEFT - CORNER),
    )
    for side, ((x, y), (dx, dy), length) in enumerate(straights):
        if s <= length or side == len(straights) - 1:
            return (x + dx * s, y + dy * s), (-dy, dx)
        s -= length
        if s <= quarter:
            angle = math.pi / 2 * (1 - side) - s / CORNER
            cx, cy = corners[side]
            normal = (math.cos(angle), math.sin(angle))
            return (cx + CORNER * normal[0], cy + CORNER * normal[1]), normal
        s -= quarter
    raise AssertionError("unreachable")


def _ring_order(board: Mapping[str, Any]) -> list[int]:
    """The spaces of the ring: from Port Royal, the outer lane at every fork."""
    spaces = board["spaces"]
    order, space = [], board["port_royal"]
    while True:
        order.append(space)
        nexts = spaces[space]["next"]
        space = next((n for n in nexts if spaces[n]["lane"] != "inner"), nexts[0])
        if space == board["port_royal"] or space in order:
            return order


def _inner_lanes(board: Mapping[str, Any], ring: list[int]) -> list[list[int]]:
    """Each lane off the ring, with the fork before it and the merge after it."""
    on_ring, spaces = set(ring), board["spaces"]
    lanes = []
    for fork in ring:
        for start in spaces[fork]["next"]:
            if start in on_ring:
                continue
            lane = [fork, start]
            while lane[-1] not in on_ring and len(lane) <= len(spaces):
                lane.append(spaces[lane[-1]]["next"][0])
            lanes.append(lane)
    return lanes


class Layout:
    """Where each space is, its outward normal, and the lanes' paths."""

    def __init__(self, board: Mapping[str, Any]) -> None:
        self.ring = _ring_order(board)
        step = _ring_length() / len(self.ring)
        self.arc = {space: i * step for i, space in enumerate(self.ring)}
        self.at: dict[int, tuple[Point, Point]] = {s: _on_ring(self.arc[s]) for s in self.ring}
        self.lanes = _inner_lanes(board, self.ring)
        for lane in self.lanes:
            self._place_inner(lane)

    def _place_inner(self, lane: list[int]) -> None:
        """An inner lane runs inside the ring, evenly between its fork and its merge."""
        start, end = self.arc[lane[0]], self.arc[lane[-1]]
        if end <= start:
            end += _ring_length()
        inner = lane[1:-1]
        for i, space in enumerate(inner, start=1):
            (x, y), (nx, ny) = _on_ring(start + (end - start) * i / (len(inner) + 1))
            self.at[space] = ((x - nx * INNER_INSET, y - ny * INNER_INSET), (nx, ny))

    def point(self, space: int, outward: float = 0.0, along: float = 0.0) -> Point:
        """A point `outward` from `space` along its normal (negative: inward), shifted
        `along` the race direction."""
        (x, y), (nx, ny) = self.at[space]
        return (x + nx * outward + ny * along, y + ny * outward - nx * along)


@cache
def _layout() -> Layout:
    """The track's layout, worked out once: it depends only on the static board."""
    return Layout(_static())


# ---------------------------------------------------------------- the track


ISLAND_PATH = (
    "M150,228 C160,196 206,178 250,172 C300,164 352,160 396,170 C428,178 452,196 462,214 "
    "C470,230 456,240 436,244 C414,250 404,266 380,268 C350,272 340,258 316,262 "
    "C290,266 272,286 244,288 C212,290 196,278 176,268 C156,258 144,246 150,228 Z"
)
"""Jamaica, roughly: long east to west, Kingston's harbour on the south coast."""
ISLAND_SHAPE = "translate(300 236) scale(1.12 1.3) translate(-306 -226)"
"""The outline above, stretched to fill the ring."""
ISLAND_INLAND = "translate(306 226) scale(0.86) translate(-306 -226)"
"""The green inland: the island shrunk about its middle, leaving a beach."""


def _island() -> str:
    return group(
        [
            title("Jamaica"),
            el("path", d=ISLAND_PATH, fill=SAND, stroke="#c9a96e", stroke_width=5),
            el("path", d=ISLAND_PATH, fill=LAND, transform=ISLAND_INLAND),
        ],
        class_="island",
        transform=ISLAND_SHAPE,
    )


def _lanes(board: Mapping[str, Any], layout: Layout) -> str:
    """The sailing lines: the ring, and each inner lane from its fork to its merge."""
    ring = [layout.point(space) for space in layout.ring]
    lines = [el("polygon", points=_points(ring), fill="none", stroke="#8fbcd4", stroke_width=5)]
    for lane in layout.lanes:
        lines.append(
            el(
                "polyline",
                points=_points([layout.point(s) for s in lane]),
                fill="none",
                stroke="#8fbcd4",
                stroke_width=5,
            )
        )
    return group(lines, class_="lanes", stroke_linejoin="round")


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _spaces(view: Mapping[str, Any], board: Mapping[str, Any], layout: Layout) -> str:
    treasure = set(view["lairs_with_treasure"])
    common = min(space["score"] for space in board["spaces"])
    return group(
        [_space(space, space["id"] in treasure, common, layout) for space in board["spaces"]],
        class_="spaces",
    )


def _space(space: Mapping[str, Any], treasure: bool, common: int, layout: Layout) -> str:
    """One space: its shape by kind, its cost, its number inside the ring and, if its
    score is not the common one, a white tag with it."""
    sid, kind = space["id"], space["kind"]
    x, y = layout.point(sid)
    inner = space["lane"] == "inner"
    lx, ly = layout.point(sid, 0 if inner else -LABEL_INSET, LABEL_INSET if inner else 0)
    parts = [title(_space_title(space, treasure)), _space_shape(kind, x, y, treasure)]
    if space["cost"]:
        parts.append(_label(x, y, space["cost"], kind))
    parts.append(text(lx, ly + 3.5, sid, font_size=10, fill=MUTED, text_anchor="middle"))
    if space["score"] != common:
        sx, sy = layout.point(sid, -SCORE_INSET - (kind == "port_royal") * 8)
        parts.append(_score_tag(sx, sy, space["score"]))
    return group(parts, class_=f"space {kind}", data_space=sid)


def _space_title(space: Mapping[str, Any], treasure: bool) -> str:
    kind = space["kind"]
    words = [f"Space {space['id']}: {KIND_NAMES[kind]}"]
    if space.get("fork"):
        words.append(f"fork {space['fork']}, {space['lane']} lane")
    if space["cost"]:
        words.append(f"stopping costs {space['cost']} {GOODS[space['pays']][1]}")
    if kind == "lair":
        words.append("its treasure waits" if treasure else "plundered")
    words.append(f"scores {space['score']} at the end")
    return "; ".join(words)


def _space_shape(kind: str, x: float, y: float, treasure: bool) -> str:
    fill, r = KIND_FILLS[kind], SPACE_R
    if kind == "port":
        return el("rect", x=x - r, y=y - r, width=2 * r, height=2 * r, rx=3, fill=fill, stroke=INK)
    if kind == "lair":
        diamond = _diamond(x, y, r + 2, fill, stroke=INK)
        mark = _star(x, y, 7, "#f2b705") if treasure else el("circle", cx=x, cy=y, r=2, fill=MUTED)
        return diamond + mark
    if kind == "port_royal":
        return el("circle", cx=x, cy=y, r=PORT_ROYAL_R, fill=fill, stroke=INK, stroke_width=2) + (
            _glyph(x, y + 4.5, "PR", 12)
        )
    return el("circle", cx=x, cy=y, r=r, fill=fill, stroke="#1b4f72")


def _label(x: float, y: float, cost: int, kind: str) -> str:
    colour = INK if kind == "port" else "#ffffff"
    return text(
        x, y + 4.5, cost, font_size=13, font_weight="bold", fill=colour, text_anchor="middle"
    )


def _score_tag(x: float, y: float, score: int) -> str:
    return group(
        [
            el("rect", x=x - 9, y=y - 7, width=18, height=13, rx=3, fill="#ffffff", stroke=MUTED),
            text(x, y + 3, score, font_size=10, fill=INK, text_anchor="middle"),
        ],
        class_="score-tag",
    )


def _star(x: float, y: float, r: float, fill: str) -> str:
    points = [
        (
            x + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / 5),
            y - (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / 5),
        )
        for i in range(10)
    ]
    return el("polygon", points=_points(points), fill=fill)


# ---------------------------------------------------------------- the ships


def _fleet(view: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    """Every ship with its id (the seat, or GHOST), seats first."""
    ships: list[tuple[int, Mapping[str, Any]]] = [(p["seat"], p) for p in view["players"]]
    if view.get("ghost"):
        ships.append((GHOST, view["ghost"]))
    return ships


def _ships(view: Mapping[str, Any], seats: Sequence[str], layout: Layout) -> str:
    """The ships on their spaces, stacked outward (toward the island off the ring), in
    two columns when crowded."""
    by_space: dict[int, list[tuple[int, Mapping[str, Any]]]] = {}
    for ship_id, ship in _fleet(view):
        by_space.setdefault(ship["space"], []).append((ship_id, ship))
    tokens = []
    for space, here in sorted(by_space.items()):
        columns = 1 if len(here) <= SHIPS_PER_COLUMN else 2
        nx, ny = layout.at[space][1]
        row_step, column_step = (
            math.hypot(SHIP_W * nx, SHIP_H * ny),
            math.hypot(SHIP_W * ny, SHIP_H * nx),
        )
        radius = PORT_ROYAL_R if space == layout.ring[0] else SPACE_R
        way = 1 if space in layout.arc else -1
        for i, (ship_id, ship) in enumerate(here):
            row, column = divmod(i, columns)
            outward = way * (radius + 2 + row_step * (row + 0.5))
            x, y = layout.point(space, outward, (column - (columns - 1) / 2) * column_step)
            tokens.append(_ship(x, y, ship_id, _ship_title(ship_id, ship, seats), space))
    return group(tokens, class_="ships")


def _ship(x: float, y: float, ship_id: int, label: str, space: int | None = None) -> str:
    """A hull in the seat's colour with its glyph; the Ghost Ship grey, dashed, "G"."""
    ghost = ship_id == GHOST
    hull = f"M{_num(x - 11)},{_num(y - 6.5)} h22 l-4,13 h-14 z"
    return group(
        [
            title(label),
            el(
                "path",
                d=hull,
                fill="#6b6b6b" if ghost else seat_fill(ship_id),
                stroke="#ffffff" if ghost else INK,
                stroke_width=1.5,
                stroke_dasharray="3 2" if ghost else None,
            ),
            _glyph(x, y + 4, "G" if ghost else seat_glyph(ship_id), 11),
        ],
        class_="ship ghost" if ghost else "ship",
        data_seat=None if ghost else ship_id,
        data_space=space,
    )


def _glyph(x: float, y: float, glyph: str, size: float) -> str:
    """White bold text outlined in black: legible on every seat colour."""
    return text(
        x,
        y,
        glyph,
        font_size=size,
        font_weight="bold",
        fill="#ffffff",
        stroke=INK,
        stroke_width=2.5,
        paint_order="stroke",
        text_anchor="middle",
    )


def _ship_name(ship_id: int, seats: Sequence[str]) -> str:
    if ship_id == GHOST:
        return "the Ghost Ship"
    name = seats[ship_id] if ship_id < len(seats) else f"seat {seat_glyph(ship_id)}"
    return f"{seat_glyph(ship_id)} {name}"


def _ship_title(ship_id: int, ship: Mapping[str, Any], seats: Sequence[str]) -> str:
    return f"{_ship_name(ship_id, seats)}: {_where(ship)}"


def _where(ship: Mapping[str, Any]) -> str:
    lap = ship["lap"]
    if lap == "finished":
        return "home at Port Royal"
    return f"space {ship['space']}{LAP_WORDS.get(lap, '')}, {ship['steps_left']} to go"


def _battle_mark(view: Mapping[str, Any], layout: Layout) -> str:
    combat = view.get("combat")
    if not combat:
        return ""
    x, y = layout.point(combat["space"], -LABEL_INSET - 4)
    return group(
        [
            title(f"A battle at space {combat['space']}"),
            el("circle", cx=x, cy=y, r=10, fill="#ffffff", stroke="#c0392b", stroke_width=2),
            _swords(x, y),
        ],
        class_="battle",
    )


def _swords(x: float, y: float) -> str:
    """Two crossed blades, each with its guard near the hilt."""
    strokes = []
    for way in (1, -1):
        hilt = (x - 6 * way, y + 6)
        strokes.append(f"M{_num(hilt[0])},{_num(hilt[1])} l{12 * way},-12")
        strokes.append(f"M{_num(x - 5.5 * way)},{_num(y + 1.5)} l{4 * way},4")
    return el(
        "path", d=" ".join(strokes), stroke="#c0392b", stroke_width=2.2, stroke_linecap="round"
    )


# ---------------------------------------------------------------- the round


def _round_info(view: Mapping[str, Any], seats: Sequence[str]) -> str:
    """On the island: round, Captain, the dice, the bank, a battle or the result."""
    cx = (LEFT + RIGHT) / 2
    captain = _ship_name(view["captain"], seats)
    parts = [
        text(
            cx,
            ROUND_Y,
            f"Round {view['round']}",
            font_size=16,
            font_weight="bold",
            fill=INK,
            text_anchor="middle",
        ),
        text(
            cx,
            ROUND_Y + 17,
            f"Captain {_short(captain)}",
            font_size=12,
            fill=INK,
            text_anchor="middle",
        ),
        _dice(view["dice"], cx, ROUND_Y + 42),
    ]
    parts.append(_bank(view, cx, ROUND_Y + 86))
    status = _outcome_line(view, seats) or _combat_line(view)
    if status:
        parts.append(
            text(
                cx,
                ROUND_Y + 104,
                status,
                font_size=11,
                font_weight="bold",
                fill="#8b1e2d",
                text_anchor="middle",
            )
        )
    return group(parts, class_="round")


def _dice(dice: Mapping[str, Any], cx: float, y: float) -> str:
    """The morning and evening dice once placed; the two rolled dice before."""
    if dice.get("morning") is not None:
        faces = [("morning", dice["morning"]), ("evening", dice["evening"])]
    elif dice.get("rolled"):
        faces = [("rolled", value) for value in dice["rolled"]]
    else:
        return ""
    return group(
        [_die(cx + (i * 2 - 1) * 34, y, when, value) for i, (when, value) in enumerate(faces)],
        class_="dice",
    )


def _die(x: float, y: float, when: str, value: int) -> str:
    return group(
        [
            title(f"{when} die: {value}"),
            el("rect", x=x - 13, y=y - 13, width=26, height=26, rx=5, fill="#ffffff", stroke=INK),
            text(x, y + 6, value, font_size=17, font_weight="bold", fill=INK, text_anchor="middle"),
            text(x, y + 25, when, font_size=9, fill=INK, text_anchor="middle"),
        ],
        class_="die",
    )


def _bank(view: Mapping[str, Any], cx: float, y: float) -> str:
    """The bank's goods, each by its icon, and the treasure cards left to find."""
    bank = view["bank"]
    words = ", ".join(f"{bank[kind]} {GOODS[kind][1]}" for kind in GOODS if kind in bank)
    parts = [
        title(f"The bank: {words}; {view['treasure_deck']} treasure cards left"),
        text(cx - 92, y + 4, "bank", font_size=10, fill=INK, text_anchor="end"),
    ]
    for i, kind in enumerate(kind for kind in GOODS if kind in bank):
        x = cx - 78 + i * 44
        parts += [
            _goods_icon(kind, x, y, 5),
            text(x + 8, y + 4, bank[kind], font_size=10, fill=INK),
        ]
    parts += [
        _treasure_back(cx + 56, y - 8, 11, 16),
        text(cx + 71, y + 4, view["treasure_deck"], font_size=10, fill=INK),
    ]
    return group(parts, class_="bank")


def _combat_line(view: Mapping[str, Any]) -> str:
    """Who fights whom by their glyphs, then each roll (die + gunpowder) and the winner."""
    combat = view.get("combat")
    if not combat:
        return ""
    line = f"⚔ {_tag(combat['attacker'])} vs {_tag(combat['defender'])}"
    rolls = [
        _roll(face, powder)
        for face, powder in zip(combat["rolls"], combat["gunpowder"], strict=True)
        if face is not None
    ]
    if rolls:
        line += f": {' vs '.join(rolls)}"
    if combat.get("winner") is not None:
        return f"{line}, {_tag(combat['winner'])} wins"
    return f"{line} · {combat['stage'].replace('_', ' ')}"


def _tag(ship_id: int) -> str:
    return "Ghost" if ship_id == GHOST else seat_glyph(ship_id)


def _roll(face: object, powder: int) -> str:
    if face == "star":
        return "★"
    return f"{face}+{powder}" if powder else str(face)


def _outcome_line(view: Mapping[str, Any], seats: Sequence[str]) -> str:
    outcome = view.get("outcome")
    if not outcome:
        return ""
    winners = [seat for seat, place in enumerate(outcome["places"]) if place == 1]
    names = " & ".join(_short(_ship_name(seat, seats), 12) for seat in winners)
    return f"Game over: {names} wins"


def _short(name: str, chars: int = NAME_CHARS) -> str:
    return name if len(name) <= chars else name[: chars - 1] + "…"


def _legend() -> str:
    """What the shapes mean, in one line under the track."""
    y, r = LEGEND_Y, 6.0
    items = [
        (lambda x: el("circle", cx=x, cy=y, r=r, fill=KIND_FILLS["sea"]), "sea"),
        (
            lambda x: el(
                "rect",
                x=x - r,
                y=y - r,
                width=2 * r,
                height=2 * r,
                rx=2,
                fill=KIND_FILLS["port"],
                stroke=INK,
            ),
            "port",
        ),
        (lambda x: _diamond(x, y, r + 1, KIND_FILLS["lair"]), "lair"),
        (lambda x: _star(x, y, r, "#f2b705"), "treasure"),
        (lambda x: _score_tag(x, y, 5), "end score"),
        *(
            (lambda x, kind=kind: _goods_icon(kind, x, y, 5), name)
            for kind, (_, name) in GOODS.items()
        ),
    ]
    parts, x = [], 12.0
    for shape, words in items:
        parts += [shape(x), text(x + 13, y + 4, words, font_size=10, fill=INK)]
        x += 25 + LEGEND_CHAR * len(words)
    return group(parts, class_="legend")


def _diamond(x: float, y: float, r: float, fill: str, **attrs: object) -> str:
    points = _points([(x, y - r), (x + r, y), (x, y + r), (x - r, y)])
    return el("polygon", points=points, fill=fill, **attrs)


# ---------------------------------------------------------------- the players


def _panels(view: Mapping[str, Any], seats: Sequence[str], board: Mapping[str, Any]) -> str:
    cards = {card["id"]: card for card in board["cards"]}
    powers = {t["id"]: t for t in board["treasures"]}
    rows = []
    for row, (ship_id, ship) in enumerate(_fleet(view)):
        y = PANEL_TOP + row * ROW_HEIGHT
        rows.append(_panel(view, ship_id, ship, seats, y, cards, powers))
    return group(rows, class_="players")


def _panel(
    view: Mapping[str, Any],
    ship_id: int,
    ship: Mapping[str, Any],
    seats: Sequence[str],
    y: float,
    cards: Mapping[int, Mapping[str, Any]],
    powers: Mapping[str, Mapping[str, Any]],
) -> str:
    """One ship's row: name and place on the track, score; holds, doubloons, powers,
    treasures; on the right its cards."""
    active = ship_id == view.get("active")
    name = _ship_name(ship_id, seats)
    parts = [
        el(
            "rect",
            title(f"{name} is to act") if active else "",
            x=4,
            y=y,
            width=WIDTH - 8,
            height=ROW_HEIGHT - 6,
            rx=6,
            fill="#fff8e7" if ship_id != GHOST else "#ececec",
            stroke=INK if active else "#c9b98f",
            stroke_width=2.5 if active else 1,
        ),
        _ship(20, y + 16, ship_id, name),
        text(38, y + 20, _short(name), font_size=14, font_weight="bold", fill=INK),
        text(182, y + 20, _where(ship), font_size=11, fill=MUTED),
        _holds(ship["holds"], 12, y + 30),
        _doubloons(ship["holds"], 12 + 36 * 6 + 4, y + 30),
        _powers(ship["powers"], powers, 272, y + 30),
        _treasures(ship, 374, y + 30),
        _cards(ship, cards, WIDTH - 10, y + 28),
    ]
    if "score" in ship:
        parts.append(_score(ship, view, WIDTH - 12, y + 20))
    return group(parts, class_="player", data_seat=None if ship_id == GHOST else ship_id)


def _score(ship: Mapping[str, Any], view: Mapping[str, Any], x: float, y: float) -> str:
    outcome = view.get("outcome")
    place = f" · place {outcome['places'][ship['seat']]}" if outcome else ""
    return group(
        [
            title(f"score if the game ended now: {ship['score']}{place}"),
            text(
                x,
                y,
                f"{ship['score']} pts{place}",
                font_size=12,
                font_weight="bold",
                fill=INK,
                text_anchor="end",
            ),
        ],
        class_="score",
    )


def _holds(holds: Sequence[Mapping[str, Any]], x: float, y: float) -> str:
    """A box per hold: the goods' shape and count, or a dot for an empty hold; the 6th
    hold dashed."""
    boxes = []
    for i, hold in enumerate(holds):
        bx, kind = x + i * 36, hold.get("kind")
        sixth = hold.get("sixth")
        label = f"hold {i + 1}" + (" (the 6th Hold)" if sixth else "")
        label += f": {hold['count']} {GOODS[kind][1]}" if kind else ": empty"
        inner = [
            title(label),
            el(
                "rect",
                x=bx,
                y=y,
                width=32,
                height=26,
                rx=4,
                fill="#ffffff",
                stroke=MUTED,
                stroke_dasharray="3 2" if sixth else None,
            ),
        ]
        if kind:
            inner += [
                _goods_icon(kind, bx + 9, y + 13, 6),
                text(
                    bx + 24,
                    y + 18,
                    hold["count"],
                    font_size=13,
                    font_weight="bold",
                    fill=INK,
                    text_anchor="middle",
                ),
            ]
        else:
            inner.append(el("circle", cx=bx + 16, cy=y + 13, r=1.5, fill=MUTED))
        boxes.append(group(inner, class_="hold"))
    return group(boxes, class_="holds")


def _goods_icon(kind: str, x: float, y: float, r: float) -> str:
    """Gold a coin (circle), food a crate (square), gunpowder a keg (diamond)."""
    fill = GOODS[kind][0]
    if kind == "food":
        return el(
            "rect",
            x=x - r,
            y=y - r,
            width=2 * r,
            height=2 * r,
            fill=fill,
            stroke=INK,
            stroke_width=0.8,
        )
    if kind == "gunpowder":
        return _diamond(x, y, r + 1, fill, stroke=INK, stroke_width=0.8)
    return el("circle", cx=x, cy=y, r=r, fill=fill, stroke=INK, stroke_width=0.8)


def _doubloons(holds: Sequence[Mapping[str, Any]], x: float, y: float) -> str:
    gold = sum(h["count"] for h in holds if h.get("kind") == "gold")
    return group(
        [
            title(f"{gold} doubloons in the holds"),
            _goods_icon("gold", x + 7, y + 13, 7),
            text(x + 18, y + 18, gold, font_size=13, font_weight="bold", fill=INK),
        ],
        class_="doubloons",
    )


def _powers(
    held: Sequence[str], powers: Mapping[str, Mapping[str, Any]], x: float, y: float
) -> str:
    badges = []
    for i, power in enumerate(held):
        card = powers[power]
        letters = POWER_LETTERS.get(card["effect"], card["name"][:3])
        bx = x + i * 24
        badges.append(
            group(
                [
                    title(f"power: {card['name']}"),
                    el("rect", x=bx, y=y + 3, width=22, height=20, rx=3, fill="#6c4f9e"),
                    text(
                        bx + 11,
                        y + 17,
                        letters,
                        font_size=8.5,
                        font_weight="bold",
                        fill="#ffffff",
                        text_anchor="middle",
                    ),
                ],
                class_="power",
            )
        )
    return group(badges, class_="powers")


def _treasures(ship: Mapping[str, Any], x: float, y: float) -> str:
    """Face-down treasure cards: their values when the view shows them, else their backs;
    closer together when there are many."""
    values = ship.get("treasures")
    shown: list[int | None] = list(values) if values else [None] * ship["face_down_treasures"]
    step = min(18.0, TREASURE_ROOM / max(len(shown) - 1, 1))
    cards = []
    for i, value in enumerate(shown):
        cx = x + i * step
        if value is None:
            face = [title("face-down treasure"), _treasure_back(cx, y + 1, 16, 24)]
        else:
            face = [
                title(f"treasure card worth {value:+d}"),
                el("rect", x=cx, y=y + 1, width=16, height=24, rx=2, fill="#ffffff", stroke=INK),
                text(
                    cx + 8,
                    y + 17,
                    f"{value:+d}",
                    font_size=8,
                    font_weight="bold",
                    fill=INK,
                    text_anchor="middle",
                ),
            ]
        cards.append(group(face, class_="treasure"))
    return group(cards, class_="treasures")


def _treasure_back(x: float, y: float, width: float, height: float) -> str:
    """A face-down treasure card: brown, with a gold star."""
    return el("rect", x=x, y=y, width=width, height=height, rx=2, fill="#7a4b2a", stroke=INK) + (
        _star(x + width / 2, y + height / 2, width * 0.3, "#f2b705")
    )


def _cards(
    ship: Mapping[str, Any], cards: Mapping[int, Mapping[str, Any]], right: float, y: float
) -> str:
    """At the right: the card played this round, or the chosen one (face down unless the
    view shows it); left of it, apart, the hand when the view holds it."""
    revealed, chosen = ship.get("revealed_card"), ship.get("chosen_card")
    drawn, x = [], right - CARD_W
    if revealed is not None or chosen is not None or ship.get("has_chosen"):
        card = revealed if revealed is not None else chosen
        role = "played" if revealed is not None else "chosen"
        drawn.append(_card(x, y, role, cards.get(card) if card is not None else None, card))
        x -= CARD_W + 10
    hand = ship.get("hand") or []
    for card in reversed(hand):
        drawn.append(_card(x, y, "in hand", cards.get(card), card))
        x -= CARD_W + 3
    if hand:
        drawn.append(
            text(x + CARD_W - 1, y + 22, "hand", font_size=9, fill=MUTED, text_anchor="end")
        )
    return group(drawn, class_="cards")


def _card(
    x: float, y: float, role: str, card: Mapping[str, Any] | None, card_id: int | None
) -> str:
    """A card: its morning half above its evening half, or a back; the card played or
    chosen is framed thicker than the hand's."""
    if card is None:
        return group(
            [
                title(f"card {role}"),
                el("rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=3, fill="#7a4b2a", stroke=INK),
            ],
            class_="card back",
        )
    morning, evening = card["morning"], card["evening"]
    words = (
        f"card {card_id} {role}: morning {_symbol_name(morning)}, evening {_symbol_name(evening)}"
    )
    return group(
        [
            title(words),
            el(
                "rect",
                x=x,
                y=y,
                width=CARD_W,
                height=CARD_H,
                rx=3,
                fill="#fffdf5",
                stroke=INK,
                stroke_width=1 if role == "in hand" else 2,
            ),
            el("line", x1=x + 2, y1=y + 18, x2=x + 18, y2=y + 18, stroke=MUTED),
            _symbol(morning, x + 10, y + 9),
            _symbol(evening, x + 10, y + 27),
        ],
        class_="card",
    )


def _symbol_name(symbol: str) -> str:
    return SYMBOL_NAMES.get(symbol) or f"load {GOODS[symbol][1]}"


def _symbol(symbol: str, x: float, y: float) -> str:
    """A move is a triangle pointing its way; a load is its goods' icon."""
    if symbol in SYMBOL_NAMES:
        way = 1 if symbol == "forward" else -1
        return el(
            "polygon",
            points=_points([(x - 5 * way, y - 5), (x + 5 * way, y), (x - 5 * way, y + 5)]),
            fill=INK,
        )
    return _goods_icon(symbol, x, y, 4.5)
