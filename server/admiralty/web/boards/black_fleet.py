"""Black Fleet's board: the sea map with every ship, the ports' stocks and prices, and one
panel per seat.

The map is the board file's grid under column letters and row numbers, as the log names
spaces ("C4"): open sea, land, the five ports (their key, goods colour and stock), the
beaches with their burial value, the pirate lairs and the four distant seas in the
corners. On it sit each seat's merchant (a hull in the seat's colour) and pirate (a dark
disc ringed in the seat's colour), both bearing the seat's number, with the cubes they
carry; the yellow navy is an upward triangle, the purple one a downward triangle; the ship
now sailing is ringed. Pirates waiting in a distant sea sit in its corner. Each seat's
panel gives its doubloons, ransom, ships and cargo, hand sizes, development cards (titles
only where the view shows them) and, when the view holds them, its hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from admiralty.games import load_game
from admiralty.web.boards.svg import el, group, seat_fill, seat_glyph, svg, text, title

WIDTH = 560
MARGIN = 12
CELL = 40
MAP_X = 28
"""Left edge of column A; the row numbers sit in the margin before it."""
MAP_Y = 66
"""Top edge of row 1; the header and the column letters sit above it."""
PORTS_GAP = 10
PORTS_H = 58
LEGEND_H = 26
PANEL_H = 104
PANEL_GAP = 6
LINE = 19
FOOTER_H = 24
FONT = "DejaVu Sans, Verdana, sans-serif"

INK = "#1d2a36"
DIM = "#5b6975"
SEA = "#cfe6f5"
SEA_EDGE = "#a7c8de"
LAND = "#c8bc8c"
BEACH = "#f1e2b2"
DISTANT = "#3b6f99"
PIRATE_HULL = "#22262b"
PANEL = "#f6f7f8"
SAND_INK = "#7a5a12"

CUBE_FILLS = {
    "yellow": "#f2c500",
    "red": "#d7263d",
    "green": "#2e9e4f",
    "blue": "#2563c9",
    "purple": "#8e44ad",
}
CUBE_INK = {"yellow": INK}
"""Letter colour on a cube where white would not show."""
NAVY_POINTS = {"yellow": (0, -1, 1, 1, -1, 1), "purple": (0, 1, 1, -1, -1, -1)}
"""Each navy's triangle (unit half-size, x y pairs): yellow points up, purple down."""
DEV_SLOT_W = 128
DEV_TITLE_CHARS = 20
HAND_TITLE_CHARS = 13
NOTE_CHARS = 60
NOTE_CHAR_W = 6.2
"""Room a character of the panels' 10-px lines takes, to fit them in the panel."""
MORE_W = 56
"""Room kept at the end of a panel's last line for "+N more"."""
NOTE: dict[str, object] = {"font_size": 10, "fill": DIM}

Board = Mapping[str, Any]
View = Mapping[str, Any]


@cache
def _static() -> dict[str, Any]:
    """The engine's board and card texts, which the view refers to by key and id."""
    return load_game("black_fleet").static_info()


def draw(view: View, seats: Sequence[str]) -> str:
    """The whole board for `view` with the bot names `seats`."""
    info = _static()
    board = info["board"]
    names = [_name(seats, s["seat"]) for s in view["seats"]]
    map_bottom = MAP_Y + board["rows"] * CELL
    ports_y = map_bottom + PORTS_GAP
    legend_y = ports_y + PORTS_H
    panels_y = legend_y + LEGEND_H
    footer_y = panels_y + len(view["seats"]) * (PANEL_H + PANEL_GAP)
    parts = [
        el("rect", x=0, y=0, width=WIDTH, height=footer_y + FOOTER_H, fill="#ffffff"),
        _header(view, names),
        _grid(board),
        _ships(view, board, names),
        _ports(view, board, ports_y),
        _legend(legend_y),
        *(
            _panel(view, seat, names, info, panels_y + i * (PANEL_H + PANEL_GAP))
            for i, seat in enumerate(view["seats"])
        ),
        _footer(view, footer_y),
    ]
    label = f"Black Fleet, round {view['round']}, turn {view['turn']}"
    return svg(WIDTH, footer_y + FOOTER_H, label, parts, font_family=FONT)


def _name(seats: Sequence[str], seat: int) -> str:
    return seats[seat] if seat < len(seats) else f"seat {seat_glyph(seat)}"


def _clip(words: str, chars: int) -> str:
    return words if len(words) <= chars else words[: chars - 1].rstrip() + "…"


def _cell_xy(row: int, col: int) -> tuple[int, int]:
    """The top-left corner of a grid cell."""
    return MAP_X + col * CELL, MAP_Y + row * CELL


@cache
def _spaces() -> dict[int, tuple[int, int]]:
    """Each sea space's (row, col) by id."""
    return {s["id"]: (s["row"], s["col"]) for s in _static()["board"]["spaces"]}


def _where(space: int | None, zone: str | None = None) -> str:
    """A ship's place as the log names it: "C4", "NW distant sea" or "off the board"."""
    if space is not None:
        row, col = _spaces()[space]
        return f"{chr(ord('A') + col)}{row + 1}"
    return f"{zone} distant sea" if zone else "off the board"


# -- header and footer -------------------------------------------------------------------


def _header(view: View, names: Sequence[str]) -> str:
    heading = f"Black Fleet · round {view['round']} of {view['round_cap']} · turn {view['turn']}"
    if view["final_round"]:
        heading += " · final round"
    return group(
        [
            text(MARGIN, 22, heading, font_size=16, font_weight="bold", fill=INK),
            text(MARGIN, 42, _status(view, names), font_size=12, fill=DIM),
        ]
    )


def _status(view: View, names: Sequence[str]) -> str:
    """What the game waits for, in words."""
    outcome = view["outcome"]
    if outcome is not None:
        winners = [names[s] for s, place in enumerate(outcome["places"]) if place == 1]
        why = "a ransom was paid" if outcome["reason"] == "victory" else "the round cap"
        return _clip(f"Game over ({why}): {', '.join(winners)} first", 80)
    phase = view["phase"]
    if phase == "place_merchant" and view["setup_seat"] is not None:
        return _clip(f"Setup: {names[view['setup_seat']]} places a merchant", 80)
    who = names[view["active_seat"]]
    doing = phase.replace("_", " ")
    if phase == "window" and view["window"]:
        doing = f"fortune window ({view['window']})"
    current = view["current"]
    if current["ship"]:
        kind, _, owner = current["ship"].partition(":")
        ship = kind if owner.isdigit() else f"{owner} navy"
        doing += f": the {ship} sails, {current['points']} points"
    return f"{_clip(who, 24)} to play · {doing}"


def _to_play(view: View) -> int | None:
    """The seat the game waits for: the one placing a merchant, else the active seat."""
    if view["outcome"] is not None:
        return None
    setup = view["setup_seat"]
    return int(view["active_seat"] if setup is None else setup)


def _ship_title(ref: str, names: Sequence[str]) -> str:
    """ "merchant:2" -> "<name>'s merchant"; "navy:yellow" -> "yellow navy"."""
    kind, _, owner = ref.partition(":")
    return f"{names[int(owner)]}'s {kind}" if owner.isdigit() else f"{owner} navy"


def _footer(view: View, y: float) -> str:
    decks = view["decks"]
    words = (
        f"movement deck {decks['movement']} ({len(decks['movement_discard'])} discarded) · "
        f"fortune deck {decks['fortune']} ({len(decks['fortune_discard'])} discarded)"
    )
    played = view["current"]["played"]
    if played:
        words += f" · played {played}"
    return text(MARGIN, y + 16, words, font_size=11, fill=DIM)


# -- the map -----------------------------------------------------------------------------


def _grid(board: Board) -> str:
    """Every cell of the grid, with the column letters and row numbers around it."""
    ports = {p["key"]: p for p in board["ports"]}
    spaces = {(s["row"], s["col"]): s for s in board["spaces"]}
    cells = []
    for row, line in enumerate(board["grid"]):
        for col, glyph in enumerate(line):
            x, y = _cell_xy(row, col)
            if glyph in ports:
                cells.append(_port_cell(ports[glyph], x, y))
            elif (row, col) in spaces:
                cells.append(_sea_cell(spaces[(row, col)], x, y))
            elif glyph == "D":
                cells.append(_distant_cell(board, row, col, x, y))
            else:
                cells.append(el("rect", x=x, y=y, width=CELL, height=CELL, fill=LAND))
    return group([*cells, _margins(board)])


def _margins(board: Board) -> str:
    letters = [
        text(MAP_X + c * CELL + CELL / 2, MAP_Y - 6, chr(ord("A") + c), text_anchor="middle")
        for c in range(board["cols"])
    ]
    numbers = [
        text(MAP_X - 6, MAP_Y + r * CELL + CELL / 2 + 4, r + 1, text_anchor="end")
        for r in range(board["rows"])
    ]
    return group([*letters, *numbers], font_size=11, fill=DIM)


def _sea_cell(space: Mapping[str, Any], x: int, y: int) -> str:
    """An open-sea space, a beach (sand, its burial value) or a lair (a skull)."""
    where = _where(space["id"])
    parts = [title(f"{where}: open sea"), _square(x, y, SEA)]
    if space["beach"] is not None:
        parts = [
            title(f"{where}: beach, burial value {space['beach']}"),
            _square(x, y, BEACH),
            text(x + 3, y + 12, space["beach"], font_size=11, font_weight="bold", fill=SAND_INK),
        ]
    elif space["lair"]:
        parts = [
            title(f"{where}: pirate lair"),
            _square(x, y, SEA),
            text(x + 2, y + 15, "☠", font_size=17, fill=SAND_INK),
        ]
    return group(parts)


def _square(x: int, y: int, fill: str) -> str:
    return el("rect", x=x, y=y, width=CELL, height=CELL, fill=fill, stroke=SEA_EDGE)


def _distant_cell(board: Board, row: int, col: int, x: int, y: int) -> str:
    key = next(z["key"] for z in board["distant_seas"] if z["cell"] == [row, col])
    return group(
        [
            title(f"{key} distant sea: pirates wait here before they enter"),
            _square(x, y, DISTANT),
            text(x + 3, y + CELL - 4, key, font_size=9, font_weight="bold", fill="#ffffff"),
        ]
    )


def _port_cell(port: Mapping[str, Any], x: int, y: int) -> str:
    """A port on its land cell: its key on a tile of its goods colour."""
    colour = port["colour"]
    return group(
        [
            title(f"{port['name']} ({port['key']}), home of the {colour} goods"),
            el("rect", x=x, y=y, width=CELL, height=CELL, fill=LAND),
            el(
                "rect",
                x=x + 4,
                y=y + 4,
                width=CELL - 8,
                height=CELL - 8,
                rx=6,
                fill=CUBE_FILLS[colour],
                stroke=INK,
                stroke_width=1.5,
            ),
            text(
                x + CELL / 2,
                y + CELL / 2 + 6,
                port["key"],
                font_size=17,
                font_weight="bold",
                text_anchor="middle",
                fill=CUBE_INK.get(colour, "#ffffff"),
            ),
        ]
    )


# -- the ships ---------------------------------------------------------------------------


def _ships(view: View, board: Board, names: Sequence[str]) -> str:
    """Every ship on the map, those sharing a space or a distant sea side by side."""
    at: dict[tuple[int, int], list[tuple[str, Mapping[str, Any]]]] = {}
    zones = {z["key"]: tuple(z["cell"]) for z in board["distant_seas"]}
    for seat in view["seats"]:
        for kind in ("merchant", "pirate"):
            ship = seat[kind]
            if ship["space"] is not None:
                at.setdefault(_spaces()[ship["space"]], []).append((kind, ship))
            elif ship.get("zone"):
                at.setdefault(zones[ship["zone"]], []).append((kind, ship))
    for colour in sorted(view["navies"]):
        space = view["navies"][colour]
        if space is not None:
            at.setdefault(_spaces()[space], []).append(("navy", {"ship": f"navy:{colour}"}))
    moving = view["current"]["ship"]
    pieces = []
    for (row, col), ships in sorted(at.items()):
        x, y = _cell_xy(row, col)
        scale = 1.0 if len(ships) == 1 else 0.6
        for i, (kind, ship) in enumerate(ships):
            cx, cy = _slot(i, len(ships), x, y)
            pieces.append(_ship(kind, ship, cx, cy, scale, names, ship["ship"] == moving))
    return group(pieces)


def _slot(index: int, count: int, x: int, y: int) -> tuple[float, float]:
    """The centre of the `index`-th of `count` ships in the cell at (x, y)."""
    if count == 1:
        return x + CELL / 2, y + CELL / 2 - 1
    col, row = index % 2, index // 2
    top = CELL / 2 - 4 if count <= 2 else CELL / 4 + 1
    return x + CELL / 4 + col * CELL / 2, y + top + row * CELL / 2


def _ship(
    kind: str,
    ship: Mapping[str, Any],
    cx: float,
    cy: float,
    scale: float,
    names: Sequence[str],
    moving: bool,
) -> str:
    """One ship with its cargo below it, named in its tooltip."""
    ref = ship["ship"]
    cargo = ship.get("cargo", [])
    name = _ship_title(ref, names)
    if cargo:
        name += ", carrying " + ", ".join(cargo)
    if moving:
        name += " (sailing now)"
    parts = [title(name)]
    if moving:
        parts.append(
            el(
                "circle",
                cx=cx,
                cy=cy + 2 * scale,
                r=18 * scale,
                fill="none",
                stroke=INK,
                stroke_width=2,
                stroke_dasharray="4 3",
            )
        )
    parts.append(_shape(ref, cx, cy, scale))
    parts.extend(_map_cubes(cargo, cx, cy + 13 * scale, scale))
    return group(parts)


def _shape(ref: str, cx: float, cy: float, scale: float) -> str:
    """A ship's shape: "merchant:2" a hull, "pirate:2" a disc, "navy:yellow" a triangle."""
    kind, _, owner = ref.partition(":")
    if kind == "navy":
        return _triangle(owner, cx, cy, scale)
    seat = int(owner)
    draw_hull = _hull if kind == "merchant" else _disc
    return draw_hull(seat_fill(seat), seat_glyph(seat), cx, cy, scale)


def _hull(fill: str, glyph: str, cx: float, cy: float, scale: float) -> str:
    """A merchant: a hull in the seat's colour with the seat's number on it."""
    w, h = 13 * scale, 8 * scale
    points = f"{cx - w:.1f},{cy - h:.1f} {cx + w:.1f},{cy - h:.1f} "
    points += f"{cx + w * 0.65:.1f},{cy + h:.1f} {cx - w * 0.65:.1f},{cy + h:.1f}"
    hull = el("polygon", points=points, fill=fill, stroke=INK, stroke_width=1.2)
    return hull + _glyph(glyph, cx, cy, scale)


def _disc(ring: str, glyph: str, cx: float, cy: float, scale: float) -> str:
    """A pirate: a dark disc ringed in the seat's colour, with the seat's number on it."""
    disc = el(
        "circle",
        cx=cx,
        cy=cy,
        r=10 * scale,
        fill=PIRATE_HULL,
        stroke=ring,
        stroke_width=3.5 * scale,
    )
    return disc + _glyph(glyph, cx, cy, scale)


def _triangle(colour: str, cx: float, cy: float, scale: float) -> str:
    """A navy ship: a triangle in its colour, pointing up (yellow) or down (purple)."""
    unit = NAVY_POINTS[colour]
    size = 11 * scale
    points = " ".join(
        f"{cx + unit[i] * size:.1f},{cy + unit[i + 1] * size:.1f}" for i in range(0, 6, 2)
    )
    return el("polygon", points=points, fill=CUBE_FILLS[colour], stroke=INK, stroke_width=1.5)


def _glyph(glyph: str, cx: float, cy: float, scale: float) -> str:
    if not glyph:
        return ""
    return text(
        cx,
        cy + 4.5 * scale,
        glyph,
        font_size=round(13 * scale, 1),
        font_weight="bold",
        text_anchor="middle",
        fill="#ffffff",
    )


def _map_cubes(cargo: Sequence[str], cx: float, top: float, scale: float) -> list[str]:
    """Small cubes in a row under a ship on the map (the panels letter them)."""
    size, step = 7 * scale, 8 * scale
    left = cx - step * len(cargo) / 2
    return [
        el(
            "rect",
            x=round(left + i * step + 0.5, 1),
            y=round(top, 1),
            width=size,
            height=size,
            fill=CUBE_FILLS.get(colour, "#999999"),
            stroke=INK,
            stroke_width=0.6,
        )
        for i, colour in enumerate(cargo)
    ]


def _cube(colour: str, x: float, y: float) -> str:
    """A lettered cube for the panels and the ports: y r g b p."""
    return group(
        [
            title(f"{colour} cube"),
            el(
                "rect",
                x=x,
                y=y,
                width=12,
                height=12,
                rx=2,
                fill=CUBE_FILLS.get(colour, "#999999"),
                stroke=INK,
                stroke_width=0.6,
            ),
            text(
                x + 6,
                y + 9.5,
                colour[0],
                font_size=9,
                font_weight="bold",
                text_anchor="middle",
                fill=CUBE_INK.get(colour, "#ffffff"),
            ),
        ]
    )


# -- the ports ---------------------------------------------------------------------------


def _ports(view: View, board: Board, y: float) -> str:
    """One column per port: key and name, its stock, and what it buys at what price."""
    stock = {p["key"]: p["stock"] for p in view["ports"]}
    width = (WIDTH - 2 * MARGIN) / len(board["ports"])
    columns = []
    for i, port in enumerate(board["ports"]):
        x = MARGIN + i * width
        columns.append(_port_column(port, stock[port["key"]], x, y, width))
    return group(columns)


def _port_column(port: Mapping[str, Any], stock: int, x: float, y: float, width: float) -> str:
    buys = port["buys"]
    prices = ", ".join(f"{colour} {price}" for colour, price in buys.items())
    parts = [
        title(f"{port['name']} ({port['key']}): {stock} {port['colour']} in stock; buys {prices}"),
        el("rect", x=x + 1, y=y, width=width - 2, height=PORTS_H - 4, rx=5, fill=PANEL),
        text(
            x + 6,
            y + 15,
            _clip(f"{port['key']} {port['name']}", 14),
            font_size=11,
            font_weight="bold",
            fill=INK,
        ),
        _cube(port["colour"], x + 6, y + 21),
        text(x + 22, y + 31, f"{stock} in stock", font_size=10, fill=INK),
        text(x + 6, y + 48, "buys", font_size=9, fill=DIM),
    ]
    for j, (colour, price) in enumerate(buys.items()):
        px = x + 30 + j * 24
        parts.append(_cube(colour, px, y + 39))
        parts.append(text(px + 14, y + 49, price, font_size=10, fill=INK))
    return group(parts)


def _legend(y: float) -> str:
    """What the map's shapes mean, drawn with the same shapes."""
    items = [
        (_hull(DIM, "", 0, 0, 0.7), "merchant"),
        (_disc(DIM, "", 0, 0, 0.7), "pirate"),
        (_triangle("yellow", 0, 0, 0.7), "yellow navy"),
        (_triangle("purple", 0, 0, 0.7), "purple navy"),
        (el("rect", x=-7, y=-7, width=14, height=14, fill=BEACH, stroke=SEA_EDGE), "beach"),
        (text(0, 6, "☠", font_size=17, text_anchor="middle", fill=SAND_INK), "lair"),
    ]
    parts = []
    for i, (shape, label) in enumerate(items):
        x = MARGIN + 10 + i * 90
        parts.append(group([shape], transform=f"translate({x} {y + 11})"))
        parts.append(text(x + 14, y + 15, label, font_size=11, fill=DIM))
    return group(parts)


# -- the seats' panels -------------------------------------------------------------------


def _panel(
    view: View, seat: Mapping[str, Any], names: Sequence[str], info: Mapping[str, Any], y: float
) -> str:
    """One seat: name, doubloons and ransom; ships; development cards; hands if known."""
    number = seat["seat"]
    active = _to_play(view) == number
    x = MARGIN
    parts = [
        el(
            "rect",
            x=x,
            y=y,
            width=WIDTH - 2 * MARGIN,
            height=PANEL_H,
            rx=7,
            fill=PANEL,
            stroke=seat_fill(number),
            stroke_width=3 if active else 1,
        ),
        _panel_title(view, seat, names[number], x, y + LINE),
        _panel_ships(seat, x, y + 2 * LINE),
        _panel_development(seat, x, y + 3 * LINE + 2),
        _panel_hands(seat, info, x, y + 4 * LINE + 8),
    ]
    return group(parts)


def _panel_title(view: View, seat: Mapping[str, Any], name: str, x: float, y: float) -> str:
    number = seat["seat"]
    badge = group(
        [
            el("circle", cx=x + 16, cy=y - 4, r=10, fill=seat_fill(number), stroke=INK),
            text(
                x + 16,
                y + 0.5,
                seat_glyph(number),
                font_size=12,
                font_weight="bold",
                text_anchor="middle",
                fill="#ffffff",
            ),
        ]
    )
    label = _clip(name, 26)
    if _to_play(view) == number:
        label += " ◀ to play"
    money = seat["money"]
    right = f"{money} doubloon{'' if money == 1 else 's'}"
    ransom = "ransom paid ★" if seat["victory_bought"] else f"ransom {seat['victory_cost']}"
    if view["outcome"] is not None:
        ransom = f"place {view['outcome']['places'][number]} · {ransom}"
    return group(
        [
            title(f"seat {seat_glyph(number)}: {name}, sailing {seat['colour']}"),
            badge,
            text(x + 32, y, label, font_size=13, font_weight="bold", fill=INK),
            text(
                WIDTH - MARGIN - 10,
                y,
                right,
                font_size=13,
                font_weight="bold",
                text_anchor="end",
                fill=INK,
            ),
            text(WIDTH - MARGIN - 120, y, ransom, font_size=11, text_anchor="end", fill=DIM),
        ]
    )


def _panel_ships(seat: Mapping[str, Any], x: float, y: float) -> str:
    """Merchant and pirate with where they are and their cubes, then the hand sizes."""
    parts = []
    left = x + 16
    for kind in ("merchant", "pirate"):
        ship = seat[kind]
        place = _where(ship["space"], ship.get("zone"))
        parts.append(group([title(f"{kind} at {place}"), _shape(ship["ship"], left, y - 4, 0.7)]))
        parts.append(text(left + 14, y, place, font_size=11, fill=INK))
        cubes_x = left + 14 + 7 * len(place) + 4
        parts.extend(_cube(c, cubes_x + i * 14, y - 10) for i, c in enumerate(ship["cargo"]))
        left = cubes_x + 14 * len(ship["cargo"]) + 14
    hand = (
        f"hand: {seat['movement_cards_held']} movement, "
        f"{seat['fortune_cards_held']}/{seat['fortune_limit']} fortune"
    )
    parts.append(text(WIDTH - MARGIN - 10, y, hand, font_size=11, text_anchor="end", fill=DIM))
    return group(parts)


def _panel_development(seat: Mapping[str, Any], x: float, y: float) -> str:
    """The four development cards by cost: bought ones solid, known ones dashed, the
    others face down."""
    slots = []
    for i, card in enumerate(seat["development"]):
        sx = x + 8 + i * (DEV_SLOT_W + 4)
        known = card.get("title")
        state = "bought" if card["bought"] else ("not bought" if known else "face down")
        words = _clip(f"{card['cost']} · {known or 'face down'}", DEV_TITLE_CHARS)
        slots.append(
            group(
                [
                    title(f"development card {card['cost']}: {known or 'unknown'} ({state})"),
                    el(
                        "rect",
                        x=sx,
                        y=y - 12,
                        width=DEV_SLOT_W,
                        height=17,
                        rx=3,
                        fill="#ffffff" if card["bought"] else PANEL,
                        stroke=INK if card["bought"] else DIM,
                        stroke_width=1.2 if card["bought"] else 0.8,
                        stroke_dasharray=None if card["bought"] else "3 2",
                    ),
                    text(
                        sx + 4,
                        y,
                        words,
                        font_size=10,
                        fill=INK if card["bought"] else DIM,
                    ),
                ]
            )
        )
    return group(slots)


def _panel_hands(seat: Mapping[str, Any], info: Mapping[str, Any], x: float, y: float) -> str:
    """The movement and fortune cards held, when the view holds them, then the fortune
    effects in force and the trade charter; what finds no room is named by "+N more"."""
    moves = {c["id"]: c for c in info["movement_cards"]}
    fortunes = {c["id"]: c for c in info["fortune_cards"]}
    cards = [_movement_item(moves[card_id]) for card_id in seat.get("movement_hand") or []]
    for card_id in seat.get("fortune_hand") or []:
        card = fortunes[card_id]
        cards.append((_clip(card["title"], HAND_TITLE_CHARS), f"{card['title']}: {card['text']}"))
    notes = [fortunes[b]["title"] for b in seat["boosts"]]
    if seat["charter_port"]:
        port = next(p for p in info["board"]["ports"] if p["key"] == seat["charter_port"])
        notes.append(f"charter {port['name']}")
    entries = [(label, tip, True) for label, tip in cards]
    if notes:
        words = "in force: " + ", ".join(notes)
        entries.append((_clip(words, NOTE_CHARS), words, False))
    parts = []
    left, right = x + 8, WIDTH - MARGIN - 8
    for i, (label, tip, boxed) in enumerate(entries):
        width = 8 + NOTE_CHAR_W * len(label)
        last = i == len(entries) - 1
        if left + width > (right if last else right - MORE_W):
            rest = "; ".join(tip for _, tip, _ in entries[i:])
            parts.append(group([title(rest), text(left, y, f"+{len(entries) - i} more", **NOTE)]))
            break
        parts.append(_hand_entry(label, tip, boxed, left, y, width))
        left += width + 4
    return group(parts)


def _hand_entry(label: str, tip: str, boxed: bool, x: float, y: float, width: float) -> str:
    """A card held (boxed like a card) or the line of effects in force."""
    if not boxed:
        return group([title(tip), text(x, y, label, **NOTE)])
    card = el(
        "rect",
        x=x,
        y=y - 12,
        width=width,
        height=17,
        rx=3,
        fill="#fff8e6",
        stroke="#b08a2e",
        stroke_width=0.8,
    )
    return group([title(tip), card, text(x + 4, y, label, font_size=10, fill=INK)])


def _movement_item(card: Mapping[str, Any]) -> tuple[str, str]:
    """A movement card's short label and its tooltip."""
    navy = "▲" if card["navy"] == "yellow" else "▼"
    label = f"{card['id']} {navy}{card['navy_move']} P{card['pirate']} M{card['merchant']}"
    tip = (
        f"movement card {card['id']}: {card['navy']} navy {card['navy_move']}, "
        f"pirate {card['pirate']}, merchant {card['merchant']}, fortune {card['fortune']}"
    )
    return label, tip
