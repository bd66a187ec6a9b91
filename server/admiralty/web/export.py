"""A recorded match as one self-contained HTML file: the web viewer with its style and
script inlined and every frame embedded, so it opens from disk with no server or network.

The frames are the viewer's frame JSON, their boards stored once per distinct piece: a
board is cut before each `<g` and each frame lists its pieces by number, since from one
step to the next most of a board (the map, the panels nobody touched) stays the same. The
whole is gzipped and base64-encoded; the page inflates it with the browser's own
DecompressionStream. Embedded as `{"pieces": [str, ...], "frames": [frame with "svg":
[piece index, ...]]}`.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path
from typing import Any

import jinja2

from admiralty.games import Viewer
from admiralty.referee.timeline import read_timeline
from admiralty.web.frames import Replay

HERE = Path(__file__).parent
PIECE = re.compile(r"(?=<g)")

_pages = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True, keep_trailing_newline=True
)


def pieced(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """`frames` with each board as the numbers of its pieces in a shared table."""
    table: dict[str, int] = {}
    return {
        "frames": [
            {
                **frame,
                "svg": [table.setdefault(piece, len(table)) for piece in PIECE.split(frame["svg"])],
            }
            for frame in frames
        ],
        "pieces": list(table),
    }


def packed(data: Any) -> str:
    """`data` as compact JSON, gzipped, in base64."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.b64encode(gzip.compress(text, mtime=0)).decode("ascii")


def _inline(name: str, closing: str) -> str:
    """A static file for a <script> or <style> element: its closing tag cannot occur."""
    return (
        (HERE / "static" / name).read_text(encoding="utf-8").replace(closing, "<\\" + closing[1:])
    )


def export_page(record: Path, viewer: Viewer) -> str:
    """The page of the match recorded at `record`, as `viewer` saw it."""
    return replay_page(Replay(read_timeline(record, viewer)))


def replay_page(shown: Replay) -> str:
    """The page of one viewer's frames of a match."""
    frames = shown.frames(0, len(shown))
    return _pages.get_template("export.html").render(
        title=shown.title(),
        header=shown.header(),
        source="export",
        css=_inline("viewer.css", "</style"),
        js=_inline("viewer.js", "</script"),
        frames=packed(pieced(frames)),
    )


def write_export(record: Path, viewer: Viewer, page: Path) -> int:
    """Write the page to `page`; returns its size in bytes."""
    data = export_page(record, viewer).encode("utf-8")
    page.write_bytes(data)
    return len(data)
