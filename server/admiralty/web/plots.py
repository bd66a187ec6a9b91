"""The rating history as an SVG line plot, drawn on the server: each bot's mu after 0, 1,
2, ... rated games. Each line has its own colour, its own marker shape and its bot's name
at its end, so no bot is told apart by colour alone; the axes have ticks and titles.
Only presentation attributes are used (no style attribute), as the pages' CSP requires."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from admiralty.text import printable

WIDTH, HEIGHT = 720, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 16, 44
"""Margins: tick labels on the left and below, bots' names on the right."""
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
"""Okabe and Ito's palette, told apart by most colour-blind readers too."""
MARKERS_PER_LINE = 12
"""Markers drawn along a line at most (its last point always has one)."""
LABEL_GAP = 13
"""Least vertical distance between two bots' names at the lines' ends, in pixels."""

Marker = Callable[[float, float], str]


def _circle(x: float, y: float) -> str:
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4"/>'


def _polygon(*offsets: tuple[float, float]) -> Marker:
    def draw(x: float, y: float) -> str:
        points = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in offsets)
        return f'<polygon points="{points}"/>'

    return draw


def _star(tips: int = 5, outer: float = 5.0, inner: float = 2.2) -> list[tuple[float, float]]:
    angles = [k * math.pi / tips for k in range(2 * tips)]
    radii = [outer if k % 2 == 0 else inner for k in range(2 * tips)]
    return [(r * math.sin(a), -r * math.cos(a)) for a, r in zip(angles, radii, strict=True)]


PLUS = [(-2, -5), (2, -5), (2, -2), (5, -2), (5, 2), (2, 2), (2, 5), (-2, 5), (-2, 2), (-5, 2)]
MARKERS: tuple[Marker, ...] = (
    _circle,
    _polygon((-4, -4), (4, -4), (4, 4), (-4, 4)),  # square
    _polygon((0, -5), (5, 4), (-5, 4)),  # triangle
    _polygon((0, -5), (5, 0), (0, 5), (-5, 0)),  # diamond
    _polygon((0, 5), (5, -4), (-5, -4)),  # triangle pointing down
    _polygon(*PLUS, (-5, -2), (-2, -2)),
    _polygon(*_star()),
)
DASHES = ("", "6 3", "2 3")
"""Line patterns, changing once every colour and marker pairing has been used."""


def ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round values (1, 2 or 5 times a power of ten apart) covering [low, high]."""
    span = high - low or 1.0
    raw = span / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(f * power for f in (1, 2, 5, 10) if f * power >= raw)
    first = math.floor(low / step) * step
    return [round(first + i * step, 10) for i in range(math.ceil((high - first) / step) + 1)]


def rating_plot(history: Sequence[Mapping[str, Any]], order: Sequence[str]) -> str:
    """The `<svg>` of `history` (`tournament show --json`'s, one entry per bot), the bots
    styled and labelled in `order` (the leaderboard's)."""
    by_bot = {entry["bot"]: entry["points"] for entry in history}
    games = max((p["games"] for points in by_bot.values() for p in points), default=0)
    mus = [p["mu"] for points in by_bot.values() for p in points]
    x_ticks = [t for t in ticks(0, max(games, 1)) if t == int(t)]
    y_ticks = ticks(min(mus, default=0.0), max(mus, default=1.0))
    frame = _Frame(x_ticks[-1], y_ticks[0], y_ticks[-1])
    lines, labels = [], []
    for index, bot in enumerate(order):
        points = [(frame.x(p["games"]), frame.y(p["mu"])) for p in by_bot.get(bot, [])]
        if points:
            lines.append(_line(index, bot, points))
            labels.append((points[-1][1], index, bot))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        'class="plot" role="img" aria-labelledby="plot-title">'
        '<title id="plot-title">Each bot\'s mu by games rated</title>'
        + _axes(frame, x_ticks, y_ticks)
        + "".join(lines)
        + _labels(labels)
        + "</svg>"
    )


class _Frame:
    """Data coordinates to the plot's pixels (y grows downwards)."""

    def __init__(self, games: float, low: float, high: float):
        self.games, self.low, self.high = games or 1.0, low, high if high > low else low + 1

    def x(self, games: float) -> float:
        return LEFT + games / self.games * (WIDTH - LEFT - RIGHT)

    def y(self, mu: float) -> float:
        return TOP + (self.high - mu) / (self.high - self.low) * (HEIGHT - TOP - BOTTOM)


def _axes(frame: _Frame, x_ticks: Sequence[float], y_ticks: Sequence[float]) -> str:
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    parts = [
        '<g class="axes" stroke="#888" fill="none">',
        f'<line x1="{LEFT}" y1="{bottom}" x2="{right}" y2="{bottom}"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>',
    ]
    parts += [
        f'<line x1="{frame.x(t):.1f}" y1="{bottom}" x2="{frame.x(t):.1f}" y2="{bottom + 5}"/>'
        for t in x_ticks
    ]
    parts += [
        f'<line x1="{LEFT}" y1="{frame.y(t):.1f}" x2="{right}" y2="{frame.y(t):.1f}" '
        'stroke="#ddd"/>'
        for t in y_ticks
    ]
    parts.append('</g><g class="tick-labels" fill="currentColor" font-size="12">')
    parts += [
        f'<text x="{frame.x(t):.1f}" y="{bottom + 18}" text-anchor="middle">{_number(t)}</text>'
        for t in x_ticks
    ]
    parts += [
        f'<text x="{LEFT - 6}" y="{frame.y(t) + 4:.1f}" text-anchor="end">{_number(t)}</text>'
        for t in y_ticks
    ]
    parts.append(
        f'<text x="{(LEFT + right) / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle">'
        "games rated</text>"
        f'<text x="14" y="{(TOP + bottom) / 2:.0f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {(TOP + bottom) / 2:.0f})">mu</text></g>'
    )
    return "".join(parts)


def _line(index: int, bot: str, points: Sequence[tuple[float, float]]) -> str:
    """One bot's polyline and its markers, in its colour, marker shape and dash pattern."""
    colour = COLOURS[index % len(COLOURS)]
    marker = MARKERS[index % len(MARKERS)]
    dash = DASHES[index // math.lcm(len(COLOURS), len(MARKERS)) % len(DASHES)]
    every = max(1, math.ceil((len(points) - 1) / (MARKERS_PER_LINE - 1)))
    marked = [*points[:-1:every], points[-1]]
    polyline = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dashing = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<g class="series" data-bot="{_text(bot)}">'
        f'<polyline points="{polyline}" fill="none" stroke="{colour}" stroke-width="2"{dashing}/>'
        f'<g fill="{colour}" stroke="#fff" stroke-width="1">'
        + "".join(marker(x, y) for x, y in marked)
        + "</g></g>"
    )


def _labels(ends: Sequence[tuple[float, int, str]]) -> str:
    """Each bot's name right of its line's end, moved apart vertically when ends crowd,
    with its marker before it, as a legend."""
    placed: list[tuple[float, int, str]] = []
    for y, index, bot in sorted(ends):
        y = max(y, placed[-1][0] + LABEL_GAP) if placed else y
        placed.append((y, index, bot))
    overflow = placed[-1][0] - (HEIGHT - BOTTOM) if placed else 0
    if overflow > 0:  # pushed below the plot: shift all up, keeping the gaps
        placed = [(y - overflow, index, bot) for y, index, bot in placed]
    x = WIDTH - RIGHT + 14
    parts = ['<g class="labels" font-size="12">']
    for y, index, bot in placed:
        colour = COLOURS[index % len(COLOURS)]
        parts.append(
            f'<g fill="{colour}">{MARKERS[index % len(MARKERS)](x + 4, y)}</g>'
            f'<text x="{x + 12}" y="{y + 4:.1f}" fill="currentColor">{_text(_short(bot))}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _short(bot: str, keep: int = 18) -> str:
    """A long name cut in the middle, as the console's leaderboard cuts it."""
    return bot if len(bot) <= keep else f"{bot[: keep // 2 - 1]}…{bot[-(keep // 2) :]}"


def _text(value: str) -> str:
    return escape(printable(value))


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
