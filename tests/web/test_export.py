"""`admiralty replay FILE --export match.html`: one self-contained page, the web viewer with
every frame embedded (gzip and base64), that needs no server and no network."""

from __future__ import annotations

import base64
import gzip
import json
import re
from html.parser import HTMLParser

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from admiralty.cli import app as cli
from admiralty.console.feeds import replay_screen
from admiralty.web.app import create_app
from admiralty.web.config import WebConfig
from admiralty.web.export import pieced

TOKEN = "op-export-secret"


class Page(HTMLParser):
    """Every tag's attributes, and the text of each <script> and <style> by its id/type."""

    def __init__(self, html: str):
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: dict[str, str] = {}
        self._open: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag in ("script", "style"):
            self._open = attributes.get("id") or tag
            self.scripts[self._open] = ""

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self.scripts[self._open] += data


@pytest.fixture(scope="module")
def record(web_data):
    return web_data.records / web_data.tournament / f"{web_data.match_ids[1]}.jsonl.gz"


def exported(record, tmp_path, *options: str) -> str:
    page = tmp_path / "match.html"
    result = CliRunner().invoke(cli, ["replay", str(record), "--export", str(page), *options])
    assert result.exit_code == 0, result.output
    assert result.output == f"exported: {page}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["match.html"]  # one file, nothing beside it
    return page.read_text(encoding="utf-8")


def embedded_frames(page: Page) -> list[dict]:
    """The frames the page holds, inflated as the browser does, boards put back together."""
    data = json.loads(gzip.decompress(base64.b64decode(page.scripts["match-frames"])))
    return [
        {**frame, "svg": "".join(data["pieces"][piece] for piece in frame["svg"])}
        for frame in data["frames"]
    ]


def test_the_page_holds_the_viewer_and_every_frame_the_api_serves(web_data, record, tmp_path):
    page = Page(exported(record, tmp_path))
    api = f"/api/t/{web_data.tournament}/m/{web_data.match_ids[1]}"
    client = TestClient(create_app(WebConfig(web_data.db, web_data.records, TOKEN)))
    served = client.get(f"{api}/frames?count=200").json()["frames"]
    assert embedded_frames(page) == served
    header = json.loads(page.scripts["match-data"])
    assert header["frames"] == len(served) and header["viewer"] is None
    assert "DecompressionStream" in page.scripts["script"]  # the viewer, inline
    assert ".viewer-main" in page.scripts["style"]


def test_the_page_reaches_for_nothing_outside_itself(record, tmp_path):
    html = exported(record, tmp_path)
    page = Page(html)
    links = [
        value
        for _, attributes in page.tags
        for name, value in attributes.items()
        if name in ("src", "href", "action", "data", "poster", "srcset") and value
    ]
    assert not [link for link in links if re.match(r"(https?:)?//", link)], links
    assert not [tag for tag, attributes in page.tags if tag == "link" or "src" in attributes]
    assert "default-src 'none'" in html  # and the page's own policy forbids any fetch
    assert not re.search(r"""url\(\s*['"]?(https?:)?//""", page.scripts["style"])


def test_a_seats_page_has_its_decisions_and_the_title_of_the_console(record, tmp_path):
    page = Page(exported(record, tmp_path, "--seat", "1"))
    frames = embedded_frames(page)
    decisions = [frame["decision"] for frame in frames if frame["decision"]]
    assert decisions and {decision["seat"] for decision in decisions} == {1}
    assert json.loads(page.scripts["match-data"])["viewer"] == 1
    title = replay_screen(record, None, 1).title()
    assert f"<title>{title}</title>" in (tmp_path / "match.html").read_text(encoding="utf-8")


def test_repeated_boards_are_stored_once():
    frames = [{"step": i, "svg": f"<svg><g>map</g><g>ship {i % 2}</g></svg>"} for i in range(4)]
    packed = pieced(frames)
    assert packed["pieces"] == ["<svg>", "<g>map</g>", "<g>ship 0</g></svg>", "<g>ship 1</g></svg>"]
    assert [frame["svg"] for frame in packed["frames"]] == [[0, 1, 2], [0, 1, 3]] * 2
