"""A small SVG writer for the boards: elements as strings, every text and attribute escaped.

Boards are drawn with presentation attributes (`fill`, `stroke`, …) and classes only, never
`style` attributes or elements, so the pages' content-security policy needs no inline
styles. Colour is never the only carrier of meaning: each seat also has a glyph.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

SEAT_FILLS = (
    "#d55e00",
    "#0072b2",
    "#009e73",
    "#e69f00",
    "#cc79a7",
    "#56b4e9",
    "#8c564b",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
"""One fill per seat, distinguishable by colour-blind eyes for the first eight."""

SEAT_GLYPHS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")
"""What is written on a seat's pieces: its number, counted from 1 as the pages name seats."""


def seat_fill(seat: int) -> str:
    return SEAT_FILLS[seat % len(SEAT_FILLS)]


def seat_glyph(seat: int) -> str:
    return SEAT_GLYPHS[seat % len(SEAT_GLYPHS)]


def _attrs(attrs: dict[str, object]) -> str:
    """`class_` → class, `font_size` → font-size; None and False leave the attribute out."""
    parts = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("_", "-")
        parts.append(f' {key}="{escape(_number(value))}"')
    return "".join(parts)


def _number(value: object) -> str:
    """Numbers without needless decimals, so the same board gives the same bytes."""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def el(tag: str, *children: str, **attrs: object) -> str:
    """An element around `children`, which are markup already (from `el` or `text`)."""
    inner = "".join(children)
    if not inner:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{inner}</{tag}>"


def text(x: float, y: float, content: object, **attrs: object) -> str:
    """A `<text>` whose content is escaped."""
    return f"<text{_attrs({'x': x, 'y': y, **attrs})}>{escape(str(content), False)}</text>"


def title(content: object) -> str:
    """A tooltip and accessible name for the element it is the first child of."""
    return f"<title>{escape(str(content), False)}</title>"


def group(children: Iterable[str], **attrs: object) -> str:
    return el("g", *children, **attrs)


def svg(width: float, height: float, label: str, children: Iterable[str], **attrs: object) -> str:
    """The board's root: scales to its container (viewBox), named for screen readers."""
    return el(
        "svg",
        title(label),
        *children,
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {_number(width)} {_number(height)}",
        role="img",
        aria_label=label,
        class_="board",
        **attrs,
    )
