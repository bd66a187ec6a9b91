"""The pages' one Jinja2 environment, autoescaping, with templates from this package, and
the filters every page uses."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from starlette.templating import Jinja2Templates

from admiralty.text import printable

HERE = Path(__file__).parent
STATIC = HERE / "static"

templates = Jinja2Templates(directory=HERE / "templates")


def segment(value: str) -> str:
    """`value` as one segment of a URL's path: a `/` or `?` in a name is quoted too."""
    return quote(value, safe="")


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th, ..."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def utc_minute(at: str | None) -> str:
    """An ISO 8601 time to the minute, as the pages show times (UTC); a dash for none."""
    return at.replace("T", " ")[:16] if at else "-"


templates.env.filters.update(
    segment=segment, printable=printable, ordinal=ordinal, utc_minute=utc_minute
)
