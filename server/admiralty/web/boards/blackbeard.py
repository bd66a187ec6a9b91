"""Blackbeard's board: a schematic map of the seas, then one panel per player.

The map lays the ten sea areas out roughly as they lie: the Atlantic seaboard above the
Caribbean, the Spanish Main below it, and West Africa, East Africa and India in a strip
beneath, reached through the two transit boxes, drawn as lanes between the strips. Sea
lanes join neighbouring areas (the extra edges only when the game uses them). Each area
holds the pieces At Sea in it (its warship on patrol as a navy hull marked W, pirates as
hulls in their owner's colour with his seat number and code, King's Commissioners as
crowns with their controller's seat number and surname) and its ports, each with the
pirates In Port, a Pirate Port's black flag, a naval base's square, its Governor (+ or -),
a Port Attack marker (!), a destroyed port struck out (✕), a Safe Haven (H) and its
merchant (a box: ? face down, its cargo value face up). Two cells hold the game's state
and a key. A player's panel gives his Victory Points, his Event and Pirate
cards (titles and names only in his own view, card backs otherwise) and each of his
pirates: name, where he is, Notoriety, ship, the Booty in each hold and the hostages. In
solitaire the Crown has a panel too. Every piece names itself in a tooltip.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from math import ceil
from typing import Any, NamedTuple

from admiralty.games.blackbeard.data import GameData, Port, Site, load
from admiralty.web.boards.svg import el, group, seat_fill, seat_glyph, svg, text, title

DATA: GameData = load()

WIDTH = 600
MARGIN = 6
GAP = 12
COLUMNS = 3
CELL_W = (WIDTH - 2 * MARGIN - (COLUMNS - 1) * GAP) // COLUMNS
PAD = 6
HEADER_H = 20
CHIP_H = 18
CHIP_GAP = 4
SEA_LINES = 2
SEA_H = SEA_LINES * (CHIP_H + CHIP_GAP)
PORT_H = 16
PILL_W = 200
PILL_H = 44
BAND_H = PILL_H + 2 * GAP
PILL_X = MARGIN + CELL_W + GAP // 2 - PILL_W // 2
"""The transit lanes straddle the first two columns, between the strips they join."""

LAYOUT: tuple[tuple[str, ...] | str, ...] = (
    ("status", "NA", "CA"),
    ("CM", "WC", "SA"),
    ("key", "SM", "EC"),
    "T1",
    ("GC", "EA", "IN"),
    "T2",
)
"""Rows of the map: three cells (a sea area, the state or the key), or a transit lane."""

PANEL_COLUMNS = 2
PANEL_W = (WIDTH - 2 * MARGIN - (PANEL_COLUMNS - 1) * GAP) // PANEL_COLUMNS
PANEL_HEAD = 28
CARD_ROW = 17
PIRATE_ROW = 36
FOOT_H = 16
HOLD_W = 30
LABEL_W = 64

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CHAR_W = 0.6
BOLD_W = 0.66
"""A character's width as a share of the font size, plain and bold (a little generous):
room is reckoned from them."""
PAPER = "#f6f1e3"
CARD = "#ffffff"
INK = "#1b2a38"
DIM = "#56626b"
LINE = "#6f8fa8"
LANE = "#5b9bd5"
SEAS = {"america": "#d7eaf6", "west_africa": "#dcefe8", "east_africa_india": "#e6e3f4"}
TRANSIT = "#cfe3f1"
WAVE = "#b3d1e6"
NAVY = "#1f3352"
CROWN = "#3b3b3b"
RED = "#c62828"
ATTACK = "#e65100"
GOLD = "#a67c00"
BACK = "#7b4a2a"
SIDES = {"pro": ("+", "#2e7d32", "Pro-Pirate"), "anti": ("\u2212", RED, "Anti-Pirate")}
PIRATE_W = 40
TOKEN_W = 18
KC_W = 18
WARSHIP_W = 26

PHASES = {
    "setup": "setup",
    "draw": "drawing cards",
    "merchants": "merchant ships",
    "cards": "card play",
    "turn_end": "end of turn",
    "over": "game over",
}
FLAGS = (("heavy_guns", "G"), ("scurvy", "S"), ("revelry", "R"), ("letter_of_marque", "M"))
"""Marks after a ship's type: Heavy Guns, Scurvy, Debauchery & Revelry, Letter of Marque."""
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


class Box(NamedTuple):
    x: float
    y: float
    w: float
    h: float


class Ctx(NamedTuple):
    """What the parts of one drawing share: the view, the seats' names, who is where."""

    view: Mapping[str, Any]
    names: Sequence[str]
    in_port: Mapping[int, list[Mapping[str, Any]]]
    at_sea: Mapping[str, list[Mapping[str, Any]]]


def draw(view: Mapping[str, Any], seats: Sequence[str]) -> str:
    """The board in `view` (public or a seat's), with the seats' bot names."""
    boxes, map_h = _layout()
    count = len(view["players"])
    names = [seats[i] if i < len(seats) else f"Seat {seat_glyph(i)}" for i in range(count)]
    ctx = _context(view, names)
    panels, panels_h = _panels(ctx, map_h)
    height = map_h + panels_h + MARGIN
    return svg(
        WIDTH,
        height,
        f"Blackbeard, turn {view['turn']}",
        [
            el("rect", x=0, y=0, width=WIDTH, height=height, fill=PAPER),
            _lanes(view, boxes),
            *(_cell(ctx, key, box) for key, box in boxes.items()),
            panels,
        ],
        font_family=FONT,
        fill=INK,
    )


# ------------------------------------------------------------------------ layout


@cache
def _layout() -> tuple[dict[str, Box], float]:
    """Every cell and lane of the map, by key, and the map's height: fixed by the data."""
    boxes: dict[str, Box] = {}
    y = float(MARGIN)
    for row in LAYOUT:
        if isinstance(row, str):
            boxes[row] = Box(PILL_X, y, PILL_W, PILL_H)
            y += PILL_H + GAP
            continue
        height = max(_cell_height(key) for key in row)
        for col, key in enumerate(row):
            boxes[key] = Box(MARGIN + col * (CELL_W + GAP), y, CELL_W, height)
        y += height + GAP
    return boxes, y


def _cell_height(key: str) -> int:
    return HEADER_H + SEA_H + len(_sites(key)) * PORT_H + PAD


def _sites(area: str) -> list[Port | Site]:
    """An area's ports (Bermuda in both its areas) and the map's other places in it."""
    return [*DATA.ports_of(area), *(s for s in DATA.sites.values() if s.area == area)]


def _context(view: Mapping[str, Any], names: Sequence[str]) -> Ctx:
    in_port: dict[int, list[Mapping[str, Any]]] = {}
    at_sea: dict[str, list[Mapping[str, Any]]] = {
        area: [{"warship": warship}] for area, warship in (view.get("patrols") or {}).items()
    }
    for pirate in view["pirates"]:
        if pirate.get("port") is not None:
            in_port.setdefault(pirate["port"], []).append(pirate)
        else:
            at_sea.setdefault(pirate["area"], []).append(pirate)
    for kc in view.get("kcs") or ():
        at_sea.setdefault(kc["area"], []).append(kc)
    return Ctx(view, names, in_port, at_sea)


def _width(content: str, size: float, bold: bool = False) -> float:
    return len(content) * size * (BOLD_W if bold else CHAR_W)


def _clip(content: str, room: float, size: float, bold: bool = False) -> str:
    """`content`, cut with an ellipsis to fit `room`."""
    most = max(1, int(room / (size * (BOLD_W if bold else CHAR_W))))
    return content if len(content) <= most else content[: most - 1] + "…"


def _ink(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (a #rrggbb colour)."""
    red, green, blue = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"


def _points(x: float, y: float, offsets: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x + dx)},{_n(y + dy)}" for dx, dy in offsets)


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _place(location: str) -> str:
    if location in DATA.areas:
        return DATA.areas[location].name
    if location in DATA.transits:
        return DATA.transits[location].name
    return location


def _port_name(code: int) -> str:
    return DATA.ports[code].name if code in DATA.ports else str(code)


def _pirate_name(pid: str) -> str:
    return DATA.pirates[pid].name if pid in DATA.pirates else pid


def _kc_name(kc: str) -> str:
    return DATA.kcs[kc].name if kc in DATA.kcs else kc


def _card_title(number: int) -> str:
    return DATA.events[number].title if number in DATA.events else f"card {number}"


def _owner_fill(seat: int | None) -> str:
    """A seat's colour; a piece no seat owns (the Crown's, in solitaire) is dark."""
    return CROWN if seat is None else seat_fill(seat)


def _panel_rect(box: Box, stroke: str = LINE, width: float = 1) -> str:
    return el(
        "rect",
        x=box.x,
        y=box.y,
        width=box.w,
        height=box.h,
        rx=10,
        fill=CARD,
        stroke=stroke,
        stroke_width=width,
    )


# ---------------------------------------------------------------------- the map


def _lanes(view: Mapping[str, Any], boxes: Mapping[str, Box]) -> str:
    """The sea lanes between neighbours, under the cells so that the gaps show them."""
    extra = (view.get("options") or {}).get("map_extra_edges", True)
    lines = []
    for edge in DATA.edges:
        if edge.removable and not extra:
            continue
        (x1, y1), (x2, y2) = _lane_ends(*(boxes[loc] for loc in edge.between))
        first, second = edge.between
        lines.append(
            el("line", x1=x1, y1=y1, x2=x2, y2=y2, class_=f"lane lane-{first} lane-{second}")
        )
    return group(lines, stroke=LANE, stroke_width=8, stroke_linecap="round", class_="lanes")


def _lane_ends(a: Box, b: Box) -> tuple[tuple[float, float], tuple[float, float]]:
    """A lane between two boxes: across the gap between side-by-side cells, up or down
    between stacked ones, from corner to corner between diagonal ones."""
    if b.y < a.y:
        start, end = _lane_ends(b, a)
        return end, start
    if a.y == b.y:
        left, right = (a, b) if a.x < b.x else (b, a)
        y = a.y + HEADER_H + SEA_H / 2
        return (left.x + left.w - PAD, y), (right.x + PAD, y)
    low, high = max(a.x, b.x), min(a.x + a.w, b.x + b.w)
    if low < high:
        x = (low + high) / 2
        return (x, a.y + a.h - PAD), (x, b.y + PAD)
    if a.x < b.x:
        return (a.x + a.w - PAD, a.y + a.h - PAD), (b.x + PAD, b.y + PAD)
    return (a.x + PAD, a.y + a.h - PAD), (b.x + b.w - PAD, b.y + PAD)


def _cell(ctx: Ctx, key: str, box: Box) -> str:
    if key == "status":
        return _status(ctx, box)
    if key == "key":
        return _key(box)
    if key in DATA.transits:
        return _transit(ctx, key, box)
    return _area(ctx, key, box)


def _area(ctx: Ctx, area: str, box: Box) -> str:
    data = DATA.areas[area]
    parts = [
        title(f"{data.name} ({area})"),
        el(
            "rect",
            x=box.x,
            y=box.y,
            width=box.w,
            height=box.h,
            rx=10,
            fill=SEAS.get(data.region, TRANSIT),
            stroke=LINE,
        ),
        text(
            box.x + PAD,
            box.y + 15,
            _clip(f"{area} · {data.name}", box.w - 2 * PAD, 12, bold=True),
            font_size=12,
            font_weight="bold",
        ),
    ]
    band = Box(box.x + PAD, box.y + HEADER_H, box.w - 2 * PAD, SEA_H)
    parts += [_waves(band), _pieces(ctx, area, band)]
    y = box.y + HEADER_H + SEA_H
    for site in _sites(area):
        parts.append(_site(ctx, site, area, Box(box.x + PAD, y, box.w - 2 * PAD, PORT_H)))
        y += PORT_H
    return group(parts, class_=f"area area-{area}")


def _waves(band: Box) -> str:
    """Faint waves across an area's open water, under its pieces."""
    waves = int(band.w // 16) - 1
    rows = (band.y + band.h * 0.3, band.y + band.h * 0.75)
    paths = [
        el("path", d=f"M{_n(band.x + 4 + 8 * i)} {_n(y)}" + "q4 -3 8 0 t8 0" * waves)
        for i, y in enumerate(rows)
    ]
    return group(paths, fill="none", stroke=WAVE, stroke_width=1, class_="waves")


def _transit(ctx: Ctx, box_id: str, box: Box) -> str:
    name = DATA.transits[box_id].name
    return group(
        [
            title(f"Transit box {box_id}: {name}"),
            el(
                "rect",
                x=box.x,
                y=box.y,
                width=box.w,
                height=box.h,
                rx=box.h / 2,
                fill=TRANSIT,
                stroke=LINE,
                stroke_dasharray="5 3",
            ),
            text(
                box.x + box.w / 2,
                box.y + 14,
                f"{box_id} · {name}",
                font_size=10,
                font_weight="bold",
                text_anchor="middle",
            ),
            _pieces(ctx, box_id, Box(box.x + 22, box.y + 19, box.w - 44, CHIP_H + CHIP_GAP)),
        ],
        class_=f"transit area-{box_id}",
    )


def _pieces(ctx: Ctx, location: str, box: Box) -> str:
    """The warship, pirates and KCs At Sea in `location`, in rows of chips within `box`;
    pirates and KCs as tokens (seat number only, the rest in the tooltip) when the chips
    would not fit."""
    pieces = ctx.at_sea.get(location, [])
    widths = [_chip_width(piece) for piece in pieces]
    token = _rows_needed(widths, box.w) * (CHIP_H + CHIP_GAP) > box.h
    out, x, y = [], box.x, box.y + CHIP_GAP / 2
    for width, piece in zip(widths, pieces, strict=True):
        width = TOKEN_W if token and "warship" not in piece else width
        if x + width > box.x + box.w and x > box.x:
            x, y = box.x, y + CHIP_H + CHIP_GAP
        if "warship" in piece:
            out.append(_warship(piece["warship"], location, x, y + 1))
        elif "ship" in piece:
            out.append(_pirate(ctx, piece, x, y, token))
        else:
            out.append(_kc(ctx, piece, x, y, token))
        x += width + CHIP_GAP
    return group(out, class_="at-sea")


def _rows_needed(widths: Sequence[float], room: float) -> int:
    rows, used = (1 if widths else 0), 0.0
    for width in widths:
        if used and used + width > room:
            rows, used = rows + 1, 0.0
        used += width + CHIP_GAP
    return rows


def _chip_width(piece: Mapping[str, Any]) -> float:
    if "warship" in piece:
        return WARSHIP_W
    if "ship" in piece:
        return PIRATE_W
    return KC_W + 4 + _width(_surname(piece["id"]), 9.5, bold=True)


def _site(ctx: Ctx, site: Port | Site, area: str, row: Box) -> str:
    """One port's row, or a place that is no port (the Isle of Pines)."""
    if isinstance(site, Site):
        return group(
            [
                title(f"{site.name}: no port"),
                el(
                    "polygon",
                    points=_points(row.x, row.y + 3, ((0, 10), (5, 1), (10, 10))),
                    fill="#8d6e63",
                ),
                text(
                    row.x + 13, row.y + 12, site.name, font_size=10, fill=DIM, font_style="italic"
                ),
            ],
            class_="site",
        )
    if site.areas[0] != area:
        return group(
            [
                title(f"{site.name} adjoins {_place(site.areas[0])} too, and is drawn there"),
                _port_sign(site, row.x + 5, row.y + 8),
                text(
                    row.x + 13,
                    row.y + 12,
                    f"{site.name} (see {site.areas[0]})",
                    font_size=10,
                    fill=DIM,
                    font_style="italic",
                ),
            ],
            class_="port-ref",
        )
    return _port(ctx, site, row)


def _port(ctx: Ctx, port: Port, row: Box) -> str:
    """A port's row: its sign and name at the left; its marks at the right, and left of
    them the pirates In Port (tokens where the name leaves no room for chips)."""
    state: Mapping[str, Any] = next((p for p in ctx.view["ports"] if p["code"] == port.code), {})
    merchant = next((m for m in ctx.view["merchants"] if m["port"] == port.code), None)
    marks, right = _port_marks(ctx, state, merchant, row)
    destroyed = bool(state.get("destroyed"))
    name_end = row.x + 13 + _width(port.name, 10.5)
    parts = [
        title(_port_title(ctx, port, state, merchant)),
        _port_sign(port, row.x + 5, row.y + 8),
        text(row.x + 13, row.y + 12, port.name, font_size=10.5, fill=DIM if destroyed else INK),
    ]
    if destroyed:
        parts.append(
            el(
                "line",
                x1=row.x + 12,
                y1=row.y + 8,
                x2=name_end,
                y2=row.y + 8,
                stroke=RED,
                stroke_width=1.5,
            )
        )
    pirates = ctx.in_port.get(port.code, [])
    token = len(pirates) * (PIRATE_W + CHIP_GAP) > right - name_end
    step = (TOKEN_W if token else PIRATE_W) + CHIP_GAP
    for i, pirate in enumerate(pirates):
        parts.append(_pirate(ctx, pirate, right - (len(pirates) - i) * step, row.y - 1, token))
    return group([*parts, *marks], class_=f"port port-{port.code}")


def _port_marks(
    ctx: Ctx, state: Mapping[str, Any], merchant: Mapping[str, Any] | None, row: Box
) -> tuple[list[str], float]:
    """The marks at a port row's right, right to left: merchant, Governor, Port Attack or
    destruction, Safe Haven; and where the pirates In Port must end."""
    right = row.x + row.w
    marks = []
    if merchant is not None:
        right -= 14
        marks.append(_merchant(merchant, right, row.y + 2))
    if state.get("side") in SIDES:
        right -= 16
        marks.append(_governor(state["side"], right, row.y + 1))
    if state.get("destroyed"):
        right -= 15
        marks.append(_destroyed(right, row.y + 2))
    elif state.get("attacked"):
        right -= 15
        marks.append(_attacked(right, row.y + 1))
    if state.get("safe_haven"):
        right -= 15
        owner = next(
            (p["owner"] for p in ctx.view["pirates"] if p["id"] == state["safe_haven"]), None
        )
        marks.append(_haven(_owner_fill(owner), right, row.y + 2))
    return marks, right - 3


def _port_title(
    ctx: Ctx, port: Port, state: Mapping[str, Any], merchant: Mapping[str, Any] | None
) -> str:
    if port.pirate_port or port.nation is None:
        facts = ["Pirate Port"]
    else:
        base = ", naval base" if port.naval_base else ""
        facts = [
            f"{DATA.nations[port.nation].name}, Value {port.value}, Defense {port.defense}{base}"
        ]
    governor = DATA.governors.get(state.get("governor") or "")
    if governor is not None:
        facts.append(f"{SIDES[governor.side][2]} Governor {governor.name}")
    if state.get("destroyed"):
        facts.append("destroyed")
    elif state.get("attacked"):
        facts.append("Port Attack marker")
    if state.get("safe_haven"):
        facts.append(f"Safe Haven of {_pirate_name(state['safe_haven'])}")
    if merchant is not None:
        facts.append(_merchant_title(merchant))
    facts += [f"{_pirate_name(p['id'])} In Port" for p in ctx.in_port.get(port.code, [])]
    return f"{port.name} ({port.code}): " + "; ".join(facts)


def _merchant_title(merchant: Mapping[str, Any]) -> str:
    if not merchant.get("face_up"):
        said = "a merchant, face down"
    else:
        kind = DATA.merchant_types.get(merchant.get("type") or "")
        said = f"a merchant {kind.name if kind else 'ship'}, cargo value {merchant['cargo_value']}"
    located = merchant.get("located_by")
    return said + (f", located by {_pirate_name(located)}" if located else "")


# ------------------------------------------------------------------------ marks


def _port_sign(port: Port, x: float, y: float) -> str:
    """A Pirate Port's black flag, a naval base's square, any other port's dot."""
    if port.pirate_port:
        return _black_flag(x, y)
    if port.naval_base:
        return el("rect", x=x - 3.5, y=y - 3.5, width=7, height=7, fill=NAVY)
    return el("circle", cx=x, cy=y, r=3.5, fill=LINE)


def _black_flag(x: float, y: float) -> str:
    return group(
        [
            el("line", x1=x - 4, y1=y - 6, x2=x - 4, y2=y + 6, stroke="#111111"),
            el("rect", x=x - 4, y=y - 6, width=10, height=8, fill="#111111"),
            el("path", d=f"M{_n(x - 2)} {_n(y - 5)}l6 6m0 -6l-6 6", stroke="#ffffff"),
        ],
        class_="pirate-port",
    )


def _merchant(merchant: Mapping[str, Any], x: float, y: float) -> str:
    """A merchant's box: ? face down, its cargo value face up."""
    up = merchant.get("face_up")
    return group(
        [
            title(_merchant_title(merchant)),
            el(
                "rect",
                x=x,
                y=y,
                width=12,
                height=12,
                rx=1.5,
                fill="#fff4cc" if up else BACK,
                stroke=GOLD if up else "#4e2f1a",
            ),
            text(
                x + 6,
                y + 10,
                merchant.get("cargo_value") if up else "?",
                font_size=9,
                font_weight="bold",
                fill=INK if up else "#ffffff",
                text_anchor="middle",
            ),
        ],
        class_="merchant",
    )


def _governor(side: str, x: float, y: float) -> str:
    mark, colour, _ = SIDES[side]
    return group(
        [
            el("circle", cx=x + 7, cy=y + 7, r=7, fill=colour),
            text(
                x + 7,
                y + 11.5,
                mark,
                font_size=12,
                font_weight="bold",
                fill="#ffffff",
                text_anchor="middle",
            ),
        ],
        class_=f"governor {side}",
    )


def _attacked(x: float, y: float) -> str:
    return group(
        [
            el("polygon", points=_points(x, y, ((6.5, 0), (13, 13), (0, 13))), fill=ATTACK),
            text(
                x + 6.5,
                y + 12,
                "!",
                font_size=9,
                font_weight="bold",
                fill="#ffffff",
                text_anchor="middle",
            ),
        ],
        class_="attacked",
    )


def _destroyed(x: float, y: float) -> str:
    return el(
        "path",
        d=f"M{_n(x + 1)} {_n(y + 1)}l10 10m0 -10l-10 10",
        stroke=RED,
        stroke_width=2.5,
        class_="destroyed",
    )


def _haven(fill: str, x: float, y: float) -> str:
    return group(
        [
            el("rect", x=x, y=y, width=12, height=12, rx=3, fill=fill),
            text(
                x + 6,
                y + 10,
                "H",
                font_size=9,
                font_weight="bold",
                fill=_ink(fill),
                text_anchor="middle",
            ),
        ],
        class_="safe-haven",
    )


def _hull(seat: int, code: str, x: float, y: float, token: bool) -> list[str]:
    """A pirate's hull in his owner's colour, the seat number in a white disc, his code
    (a token: the disc alone)."""
    fill = seat_fill(seat)
    width = TOKEN_W if token else PIRATE_W
    parts = [
        el(
            "polygon",
            fill=fill,
            stroke="#222222",
            stroke_width=0.8,
            points=_points(x, y, ((0, 1), (width, 1), (width - 4, CHIP_H - 1), (4, CHIP_H - 1))),
        ),
        el("circle", cx=x + 9, cy=y + 9, r=6.5, fill="#ffffff"),
        text(
            x + 9,
            y + 12.5,
            seat_glyph(seat),
            font_size=_glyph_size(seat_glyph(seat), 9.5),
            font_weight="bold",
            fill="#111111",
            text_anchor="middle",
        ),
    ]
    if not token:
        parts.append(
            text(
                x + 28,
                y + 13,
                code,
                font_size=10,
                font_weight="bold",
                fill=_ink(fill),
                text_anchor="middle",
            )
        )
    return parts


def _glyph_size(glyph: str, size: float) -> str:
    """A seat number's font size: smaller for two digits, to stay inside its disc."""
    return _n(size if len(glyph) == 1 else size * 0.75)


def _crown_mark(owner: int | None, x: float, y: float) -> list[str]:
    """A KC's crown in his controller's colour with his seat number (C for the Crown)."""
    fill = _owner_fill(owner)
    crown = ((0, 17), (0, 4), (4.5, 9), (9, 1), (13.5, 9), (18, 4), (18, 17))
    return [
        el("polygon", points=_points(x, y, crown), fill=fill, stroke="#222222", stroke_width=0.8),
        text(
            x + 9,
            y + 15.5,
            "C" if owner is None else seat_glyph(owner),
            font_size=_glyph_size("C" if owner is None else seat_glyph(owner), 8.5),
            font_weight="bold",
            fill=_ink(fill),
            text_anchor="middle",
        ),
    ]


def _warship_mark(x: float, y: float) -> list[str]:
    """A navy hull with a pennant, marked W."""
    w = WARSHIP_W
    return [
        el("polygon", points=_points(x, y, ((0, 5), (w, 5), (w - 4, 15), (4, 15))), fill=NAVY),
        el("polygon", points=_points(x, y, ((w / 2, 0), (w / 2 + 7, 2.5), (w / 2, 5))), fill=RED),
        text(
            x + w / 2,
            y + 13.5,
            "W",
            font_size=9,
            font_weight="bold",
            fill="#ffffff",
            text_anchor="middle",
        ),
    ]


def _card_back(x: float, y: float) -> str:
    return el("rect", x=x, y=y, width=9, height=13, rx=1.5, fill=BACK, stroke="#4e2f1a")


# ----------------------------------------------------------------------- pieces


def _pirate(ctx: Ctx, pirate: Mapping[str, Any], x: float, y: float, token: bool) -> str:
    """A pirate's hull, ringed while he is the pirate taking Actions."""
    parts = [title(_pirate_title(ctx, pirate)), *_hull(pirate["owner"], pirate["id"], x, y, token)]
    if pirate["id"] == ctx.view.get("active_pirate"):
        width = TOKEN_W if token else PIRATE_W
        parts.append(
            el(
                "rect",
                x=x - 2,
                y=y - 1.5,
                width=width + 4,
                height=CHIP_H + 3,
                rx=4,
                fill="none",
                stroke="#111111",
                stroke_width=1.5,
                stroke_dasharray="3 2",
            )
        )
    return group(parts, class_=f"pirate seat-{pirate['owner']}")


def _pirate_title(ctx: Ctx, pirate: Mapping[str, Any]) -> str:
    seat, ship = pirate["owner"], pirate["ship"]
    return (
        f"{_pirate_name(pirate['id'])} ({pirate['id']}) of seat {seat_glyph(seat)} "
        f"{ctx.names[seat]}: {_where(pirate)}; {ship['type']}, Combat {ship['combat']}, "
        f"Speed {ship['speed']}, Loyalty {ship['loyalty']}; Notoriety {pirate['notoriety']}; "
        f"Booty {sum(ship['holds'])}"
    )


def _where(pirate: Mapping[str, Any]) -> str:
    if pirate.get("port") is not None:
        return f"In Port at {_port_name(pirate['port'])}"
    return f"At Sea in {_place(pirate['area'])}"


def _surname(kc: str) -> str:
    return _kc_name(kc).split()[-1]


def _kc(ctx: Ctx, kc: Mapping[str, Any], x: float, y: float, token: bool) -> str:
    owner = kc.get("owner")
    who = "the Crown" if owner is None else f"seat {seat_glyph(owner)} {ctx.names[owner]}"
    parts = [
        title(f"King's Commissioner {_kc_name(kc['id'])} of {who}: At Sea in {_place(kc['area'])}"),
        *_crown_mark(owner, x, y),
    ]
    if not token:
        parts.append(
            text(x + KC_W + 3, y + 13, _surname(kc["id"]), font_size=9.5, font_weight="bold")
        )
    return group(parts, class_="kc " + ("crown" if owner is None else f"seat-{owner}"))


def _warship(warship: str, area: str, x: float, y: float) -> str:
    name = DATA.warships[warship].name if warship in DATA.warships else warship
    return group(
        [title(f"Warship {name} on patrol in {_place(area)}"), *_warship_mark(x, y)],
        class_="warship",
    )


# -------------------------------------------------------------- state and key


def _status(ctx: Ctx, box: Box) -> str:
    """The turn and phase (and whose view it is), who is to play, the General Pardons,
    the decks and pools."""
    view = ctx.view
    phase = view.get("phase", "")
    stage = PHASES.get(phase, phase)
    if view.get("viewer") is not None:
        stage += f" · seat {seat_glyph(view['viewer'])}'s view"
    x, y = box.x + PAD, box.y + 16
    parts = [
        _panel_rect(box),
        text(x, y, "Blackbeard", font_size=13, font_weight="bold"),
        text(
            box.x + box.w - PAD,
            y,
            f"Turn {view['turn']}",
            font_size=11,
            font_weight="bold",
            text_anchor="end",
        ),
        text(x, y + 15, _clip(stage, box.w - 2 * PAD, 10.5), font_size=10.5, fill=DIM),
    ]
    y += 33
    active = view.get("active")
    if active is not None and phase != "over":
        parts += [
            _seat_disc(active, x + 7, y - 4),
            text(
                x + 18,
                y,
                _clip(f"{ctx.names[active]} to play", box.w - 2 * PAD - 18, 10.5, bold=True),
                font_size=10.5,
                font_weight="bold",
            ),
        ]
    elif view.get("outcome"):
        reason = str(view["outcome"].get("reason") or "").replace("_", " ")
        parts.append(
            text(
                x,
                y,
                _clip(f"Over: {reason}", box.w - 2 * PAD, 10.5, bold=True),
                font_size=10.5,
                font_weight="bold",
            )
        )
    pools = view["pools"]
    lines = (
        (f"General Pardons {view['pardons']}/3", RED if view.get("pardon_in_force") else INK),
        (f"Event deck {view['event_deck']} · discards {len(view['discard'])}", INK),
        (f"Pirate deck {view['pirate_deck']}", INK),
        (f"Pools: merchants {pools['merchants']}", DIM),
        (f"warships {pools['warships']} · KCs {pools['kcs']}", DIM),
    )
    for i, (line, colour) in enumerate(lines):
        parts.append(
            text(x, y + 16 + 14 * i, _clip(line, box.w - 2 * PAD, 10), font_size=10, fill=colour)
        )
    return group(parts, class_="status")


def _seat_disc(seat: int, cx: float, cy: float, r: float = 7) -> str:
    fill = seat_fill(seat)
    return group(
        [
            el("circle", cx=cx, cy=cy, r=r, fill=fill, stroke="#222222", stroke_width=0.8),
            text(
                cx,
                cy + r * 0.48,
                seat_glyph(seat),
                font_size=_glyph_size(seat_glyph(seat), r * 1.35),
                font_weight="bold",
                fill=_ink(fill),
                text_anchor="middle",
            ),
        ],
        class_=f"seat seat-{seat}",
    )


def _key(box: Box) -> str:
    """What each mark means, drawn with the map's own marks."""
    x, y = box.x + PAD, box.y + 8
    rows: list[tuple[list[str], str]] = [
        (_hull(0, "AB", x, y, False), "pirate: seat, code"),
        (_crown_mark(1, x + 11, y), "King's Commissioner"),
        (_warship_mark(x + 7, y + 1), "warship on patrol"),
        (
            [
                _merchant({"face_up": False}, x + 4, y + 3),
                _merchant({"face_up": True, "cargo_value": 3}, x + 22, y + 3),
            ],
            "merchant: down, up",
        ),
        (
            [_governor("pro", x + 3, y + 2), _governor("anti", x + 21, y + 2)],
            "Pro-, Anti-Pirate Gov.",
        ),
        (
            [
                _black_flag(x + 9, y + 9),
                el("rect", x=x + 23, y=y + 5.5, width=7, height=7, fill=NAVY),
            ],
            "Pirate Port, naval base",
        ),
        ([_attacked(x + 4, y + 2), _destroyed(x + 22, y + 3)], "attacked, destroyed"),
        ([_haven(seat_fill(0), x + 13, y + 3)], "Safe Haven"),
    ]
    parts = [_panel_rect(box)]
    for i, (marks, label) in enumerate(rows):
        dy = i * CHIP_H
        parts += [
            group(marks, transform=f"translate(0 {dy})"),
            text(x + PIRATE_W + 6, y + 13 + dy, label, font_size=9.5),
        ]
    return group(parts, class_="legend")


# ------------------------------------------------------------------------ panels


def _panels(ctx: Ctx, top: float) -> tuple[str, float]:
    """One panel per player (and the Crown's in solitaire), two abreast; their height."""
    card_rows, pirate_rows = _panel_rows(ctx.view)
    height = PANEL_HEAD + (card_rows + 1) * CARD_ROW + 2 + pirate_rows * PIRATE_ROW + FOOT_H
    crown = ctx.view.get("crown")
    boxes = [
        Box(
            MARGIN + (i % PANEL_COLUMNS) * (PANEL_W + GAP),
            top + (i // PANEL_COLUMNS) * (height + GAP),
            PANEL_W,
            height,
        )
        for i in range(len(ctx.view["players"]) + (1 if crown else 0))
    ]
    out = [
        _player(ctx, player, box, card_rows)
        for player, box in zip(ctx.view["players"], boxes, strict=False)
    ]
    if crown:
        out.append(_crown(crown, boxes[-1]))
    rows = ceil(len(boxes) / PANEL_COLUMNS)
    return group(out, class_="panels"), rows * (height + GAP) - GAP


def _panel_rows(view: Mapping[str, Any]) -> tuple[int, int]:
    """The rows of Event cards and of pirates every panel has room for, the same through a
    game: the largest hand, the most pirates a player may have on the map."""
    limits = DATA.setup.limits(len(view["players"]))
    players = view["players"]
    cards = max([DATA.setup.event_hand, limits.hand_limit, *(p["event_cards"] for p in players)])
    owned = [sum(1 for pirate in view["pirates"] if pirate["owner"] == p["seat"]) for p in players]
    return ceil(cards / 2), max([limits.map_limit, *owned])


def _player(ctx: Ctx, player: Mapping[str, Any], box: Box, card_rows: int) -> str:
    seat = player["seat"]
    x, w = box.x + PAD, box.w - 2 * PAD
    y = box.y + PANEL_HEAD
    parts = [
        title(f"Seat {seat_glyph(seat)}: {ctx.names[seat]}"),
        _panel_rect(box, seat_fill(seat), 2),
        *_panel_head(ctx, player, box),
        _events(player.get("hand"), player["event_cards"], Box(x, y, w, CARD_ROW)),
    ]
    y += card_rows * CARD_ROW
    parts.append(_pirate_cards(player, Box(x, y, w, CARD_ROW)))
    y += CARD_ROW + 2
    for pirate in sorted(ctx.view["pirates"], key=lambda p: p["id"]):
        if pirate["owner"] == seat:
            parts.append(_pirate_line(ctx, pirate, Box(x, y, w, PIRATE_ROW)))
            y += PIRATE_ROW
    parts.append(_gone(player, Box(x, box.y + box.h - FOOT_H, w, FOOT_H)))
    return group(parts, class_=f"player seat-{seat}")


def _panel_head(ctx: Ctx, player: Mapping[str, Any], box: Box) -> list[str]:
    """The seat's disc and name, its tags (to play, place, anti-pirate Action taken) and VP."""
    seat = player["seat"]
    view = ctx.view
    tags = []
    if seat == view.get("active") and view.get("phase") != "over":
        tags.append("to play")
    if seat in ((view.get("interference") or {}).get("used") or ()):
        tags.append("AP done")
    outcome = view.get("outcome")
    if outcome and "won" in outcome:
        tags.append("won" if outcome["won"] else f"lost ({outcome['vp']}/{outcome['target']})")
    elif outcome:
        place = outcome["places"][seat]
        tags.append(ORDINALS.get(place, f"{place}th"))
    vp = f"{player['vp']} VP"
    tag_line = " · ".join(tags)
    right = box.x + box.w - PAD - _width(vp, 13, bold=True) - 6
    parts = [
        _seat_disc(seat, box.x + PAD + 9, box.y + 14, 9),
        text(
            box.x + box.w - PAD, box.y + 19, vp, font_size=13, font_weight="bold", text_anchor="end"
        ),
    ]
    if tag_line:
        right -= _width(tag_line, 9.5, bold=True) + 4
        parts.append(
            text(
                right + 2,
                box.y + 18,
                tag_line,
                font_size=9.5,
                font_weight="bold",
                fill=RED if "to play" in tags else DIM,
            )
        )
    name_x = box.x + PAD + 22
    parts.append(
        text(
            name_x,
            box.y + 18.5,
            _clip(ctx.names[seat], right - name_x - 4, 11.5, bold=True),
            font_size=11.5,
            font_weight="bold",
        )
    )
    return parts


def _events(hand: Sequence[int] | None, count: int, row: Box) -> str:
    """The Event cards: their titles in the seat's own view, else as many card backs."""
    label = text(row.x, row.y + 11, "Event cards", font_size=9, fill=DIM)
    left = row.x + LABEL_W
    if hand is None:
        return group([label, *_backs(count, left, row.y)], class_="events")
    cards = _card_faces(hand, Box(left, row.y, row.x + row.w - left, CARD_ROW), "hand-card")
    return group([label, *cards], class_="events")


def _card_faces(numbers: Sequence[int], row: Box, kind: str) -> list[str]:
    """Event cards face up, two abreast from `row` down, each titled (a `hand-card` or a
    `threat-card`)."""
    fill, stroke = ("#fdecea", RED) if kind == "threat-card" else ("#fff8e1", GOLD)
    width = (row.w - CHIP_GAP) / 2
    cards = []
    for i, number in enumerate(numbers):
        x = row.x + (i % 2) * (width + CHIP_GAP)
        y = row.y + (i // 2) * row.h
        name = _card_title(number)
        cards.append(
            group(
                [
                    title(f"Event card {number}: {name}"),
                    el(
                        "rect",
                        x=x,
                        y=y,
                        width=width,
                        height=row.h - 3,
                        rx=2,
                        fill=fill,
                        stroke=stroke,
                    ),
                    text(x + 3, y + 10.5, _clip(name, width - 5, 8.5), font_size=8.5),
                ],
                class_=kind,
            )
        )
    return cards


def _backs(count: int, x: float, y: float) -> list[str]:
    backs = [_card_back(x + i * 6, y) for i in range(count)]
    return [*backs, text(x + count * 6 + 8, y + 11, f"{count} in hand", font_size=9.5)]


def _pirate_cards(player: Mapping[str, Any], row: Box) -> str:
    """The Pirate cards: the pirates' names in the seat's own view (all but the first
    name; whole in the tooltip), else card backs."""
    label = text(row.x, row.y + 11, "Pirate cards", font_size=9, fill=DIM)
    hand = player.get("pirate_hand")
    if hand is None:
        return group(
            [label, *_backs(player["pirate_cards"], row.x + LABEL_W, row.y)], class_="pirate-cards"
        )
    full = ", ".join(_pirate_name(pid) for pid in hand) or "none"
    short = ", ".join(_pirate_name(pid).split(" ", 1)[-1] for pid in hand) or "none"
    return group(
        [
            title(f"Pirate cards: {full}"),
            label,
            text(
                row.x + LABEL_W,
                row.y + 11,
                _clip(short, row.w - LABEL_W, 9.5),
                font_size=9.5,
                class_="hand-pirates",
            ),
        ],
        class_="pirate-cards",
    )


def _pirate_line(ctx: Ctx, pirate: Mapping[str, Any], row: Box) -> str:
    """One pirate: his hull, name and whereabouts, Notoriety; below, his ship and holds."""
    ship = pirate["ship"]
    name_x = row.x + PIRATE_W + 6
    where = (
        _port_name(pirate["port"])
        if pirate.get("port") is not None
        else f"at sea, {pirate['area']}"
    )
    np_text = f"NP {pirate['notoriety']}"
    flags = "".join(mark for key, mark in FLAGS if ship.get(key))
    kind = f"{ship['type']} {ship['combat']}/{ship['speed']}/{ship['loyalty']}"
    kind += f" {flags}" if flags else ""
    parts = [
        _pirate(ctx, pirate, row.x, row.y, False),
        text(
            name_x,
            row.y + 13,
            _clip(
                f"{_pirate_name(pirate['id'])} · {where}",
                row.w - PIRATE_W - 12 - _width(np_text, 10.5),
                10.5,
            ),
            font_size=10.5,
        ),
        text(
            row.x + row.w,
            row.y + 13,
            np_text,
            font_size=10.5,
            font_weight="bold",
            text_anchor="end",
        ),
        text(name_x, row.y + 30, kind, font_size=9.5, fill=DIM),
    ]
    x = name_x + _width(kind, 9.5) + 6
    for booty in ship["holds"]:
        parts.append(_hold(booty, x, row.y + 20))
        x += HOLD_W + 2
    hostages = ship.get("hostages") or []
    if hostages:
        parts.append(
            text(
                x + 2,
                row.y + 30,
                f"+{len(hostages)} hostage" + ("s" if len(hostages) > 1 else ""),
                font_size=9.5,
            )
        )
    return group(parts, class_="pirate-line")


def _hold(booty: int, x: float, y: float) -> str:
    """A hold with its doubloons of Booty; empty ones are pale."""
    return group(
        [
            title(f"hold: {booty} doubloons" if booty else "empty hold"),
            el(
                "rect",
                x=x,
                y=y,
                width=HOLD_W,
                height=13,
                rx=2,
                fill="#ffe9a8" if booty else "#f1f1f1",
                stroke=GOLD if booty else "#bbbbbb",
            ),
            text(
                x + HOLD_W / 2,
                y + 10,
                booty if booty else "·",
                font_size=8.5,
                text_anchor="middle",
                fill=INK if booty else DIM,
            ),
        ],
        class_="hold",
    )


def _gone(player: Mapping[str, Any], row: Box) -> str:
    """The pirates the player has retired, and those he lost."""
    said = []
    if player.get("retired"):
        said.append("retired " + ", ".join(_pirate_name(p) for p in player["retired"]))
    if player.get("eliminated"):
        said.append("lost " + ", ".join(_pirate_name(p) for p in player["eliminated"]))
    return text(
        row.x, row.y + 11, _clip("; ".join(said), row.w, 9), font_size=9, fill=DIM, class_="gone"
    )


def _crown(crown: Mapping[str, Any], box: Box) -> str:
    """Solitaire's Crown: its level, VP target, budget, KCs and Threat Row."""
    x, y = box.x + PAD, box.y
    kcs = ", ".join(_surname(kc) for kc in crown.get("kcs") or ()) or "none"
    lines = [
        f"Level {crown['level']} · your target {crown['vp_target']} VP",
        f"Budget used {crown['budget_used']}/{crown['budget']}"
        f" · KCs {len(crown.get('kcs') or ())}/{crown['kc_limit']}: {kcs}",
        f"Threat Row ({len(crown['threat_row'])}/{crown['threat_row_limit']}):",
    ]
    parts = [
        title("The Crown"),
        _panel_rect(box, CROWN, 2),
        *_crown_mark(None, x, y + 5),
        text(x + 24, y + 19, "The Crown", font_size=11.5, font_weight="bold"),
    ]
    for i, line in enumerate(lines):
        parts.append(
            text(x, y + PANEL_HEAD + 11 + 14 * i, _clip(line, box.w - 2 * PAD, 9.5), font_size=9.5)
        )
    row = Box(x, y + PANEL_HEAD + 46, box.w - 2 * PAD, CARD_ROW)
    parts += _card_faces(crown["threat_row"], row, "threat-card")
    return group(parts, class_="crown-panel")
