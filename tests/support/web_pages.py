"""The tables of a page the web app serves, read as a person reads them, for the tests
that check what its pages show."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser


class Tables(HTMLParser):
    """Each table of a page by its class: rows of (data-key or None, text) cells."""

    def __init__(self, html: str):
        super().__init__()
        self.tables: dict[str, list[list[tuple[str | None, str]]]] = {}
        self.links: list[str] = []
        self._table: list | None = None
        self._cell: list | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "table":
            self._table = self.tables.setdefault(attributes.get("class") or "", [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = [attributes.get("data-key"), ""]
        elif tag == "a":
            self.links.append(attributes.get("href") or "")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._table:
            self._table[-1].append((self._cell[0], self._cell[1].strip()))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1] += data


def seen(page: str) -> dict:
    """The progress a polling page was made from (what its script compares answers to)."""
    found = re.search(r'data-seen="([^"]*)"', page)
    assert found is not None
    return json.loads(html.unescape(found.group(1)))
