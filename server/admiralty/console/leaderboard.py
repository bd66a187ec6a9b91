"""The tournament leaderboard as a rich Table that fits 80 columns, and narrower ones by
leaving out its least telling columns: a number is never cut, and the rank always shows.
A bot's name is shown with its control characters escaped, and never read as markup."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from admiralty.text import printable
from admiralty.tournament.solo import RANKING, SoloStanding
from admiralty.tournament.standings import Standing

COLUMNS = (
    ("#", "rank"),
    ("bot", "bot"),
    ("mu", "mu"),
    ("sigma", "sigma"),
    ("mu-3sig", "conservative"),
    ("games", "matches"),
    ("1st", "firsts"),
    ("score", "mean_score"),
    ("ms", "latency_mean_ms"),
    ("p95", "latency_p95_ms"),
    ("inc", "incidents"),
    ("crash", "crashes"),
    ("broken", "broken"),
)
SOLO_COLUMNS = (
    ("#", "rank"),
    ("bot", "bot"),
    ("margin", "mean_margin"),
    ("95% CI", "interval"),
    ("vs above", "vs_above"),
    ("games", "matches"),
    ("won", "win_rate"),
    ("ms", "latency_mean_ms"),
    ("inc", "incidents"),
    ("crash", "crashes"),
    ("broken", "broken"),
)
RATING = (
    "μ (mu) estimates a bot's skill, σ (sigma) is its uncertainty, mu-3sig is the "
    "conservative rating μ-3σ"
)
ORDER = "sorted by mu-3sig (ties: the order the bots were entered)"
"""What a rated leaderboard is sorted by (`LiveStandings.rows`), in words."""
ORDER_BY_MU = (
    "sorted by mu, the order the adaptive schedule's stop rule certifies (ties: "
    "the order the bots were entered)"
)
"""What an adaptive tournament's leaderboard is sorted by, in words."""
MEANINGS = {
    "games": "matches played",
    "1st": "first places (shared ones too)",
    "score": "mean score",
    "vs above": "the gap to the bot above, paired on the deals both played: mean (95% CI)",
    "won": "share of margins of 0 or more",
    "ms": "mean latency of the answered decisions",
    "p95": "their 95th percentile (nearest rank)",
    "inc": "failed calls and other incidents",
    "crash": "times its process died (in a call or between matches) or its connection "
    "broke in a call (DQ: disqualified, its seats played by the policy)",
    "broken": "matches it was retired from, hung or broken (answers that kept failing)",
}
"""The legend under a leaderboard: what each column it shows means (the rating's are in
RATING, a one-seat board's in RANKING)."""
LEAST_TELLING = (
    "p95",
    "sigma",
    "mu",
    "ms",
    "1st",
    "score",
    "games",
    "vs above",
    "95% CI",
    "won",
    "inc",
)
"""Columns a narrow table leaves out, first to last; rank, bot, the sort key, crashes and
broken stay."""
BOT_MIN = 8
"""Columns the bot's name keeps, however narrow the table (then cut in the middle)."""


def _cell(value: object) -> str:
    if value is None:
        return "-"
    return f"{value:.1f}" if isinstance(value, float) else str(value)


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1f}"


def _interval(low: float | None, high: float | None) -> str:
    return "-" if low is None or high is None else f"{low:+.1f}..{high:+.1f}"


def _solo_cells(data: dict[str, Any]) -> dict[str, str]:
    """A one-seat row in words: signed margins, the interval, the paired gap, a percentage."""
    gap = data["vs_above"]
    return {
        **{key: _cell(value) for key, value in data.items()},
        "mean_margin": _signed(data["mean_margin"]),
        "interval": _interval(data["margin_low"], data["margin_high"]),
        "vs_above": "-"
        if gap is None
        else f"{_signed(gap['mean'])} ({_interval(gap['low'], gap['high'])})",
        "win_rate": "-" if data["win_rate"] is None else f"{data['win_rate']:.0%}",
    }


def leaderboard_table(
    rows: Sequence[Standing | SoloStanding],
    title: str = "",
    width: int | None = None,
    by_mu: bool = False,
) -> Table:
    """Rank, bot, TrueSkill mu and sigma, the sort key mu - 3 sigma (with `by_mu`, mu: an
    adaptive tournament's order), games, first places,
    mean score, mean and p95 latency (ms) of the answered decisions, incidents and, of
    them, crashes, and the matches it was retired from as hung or broken; a disqualified
    bot is marked DQ after its crashes and its row is red, and any row with a crash or a
    retirement is yellow, so a dead or broken bot's default moves never pass unseen.

    A one-seat tournament's rows (`SoloStanding`) show instead the mean margin over the
    automated opponent with its 95% t-interval, the paired gap to the bot ranked above
    (mean and interval of the per-deal differences), games, the win rate, mean latency and
    incidents. Under the table a legend says what it is sorted by and what each column
    shown means. Within `width` columns, the columns of `LEAST_TELLING` are left out in turn
    until the rest fit whole (the legend says which), and a bot's name too long for its
    column keeps its start and its end."""
    solo = bool(rows) and isinstance(rows[0], SoloStanding)
    lines = []
    for rank, row in enumerate(rows, start=1):
        data = row.to_json(rank)
        cells = _solo_cells(data) if solo else {k: _cell(v) for k, v in data.items()}
        if data["disqualified"]:
            cells["crashes"] = f"{cells['crashes']} DQ"
        style = (
            "red"
            if data["disqualified"]
            else "yellow"
            if data["crashes"] or data["broken"]
            else None
        )
        lines.append((cells, style))
    cells_only = [cells for cells, _ in lines]
    columns = _fitting(
        SOLO_COLUMNS if solo else COLUMNS, cells_only, width, keep=("mu",) if by_mu else ()
    )
    order = RANKING if solo else f"{ORDER_BY_MU if by_mu else ORDER}: {RATING}"
    caption = f"{order}. " + "; ".join(
        f"{header}: {MEANINGS[header]}" for header, _ in columns if header in MEANINGS
    )
    left_out = [
        header for header, _ in (SOLO_COLUMNS if solo else COLUMNS) if (header, _) not in columns
    ]
    if left_out:
        caption += f"; left out to fit: {', '.join(left_out)}"
    table = Table(
        title=title or None,
        header_style="bold underline",
        box=None,
        pad_edge=False,
        padding=(0, 1, 0, 0),
        caption=caption,
        caption_justify="left",
    )
    bot_width = 16 if solo else 18
    if width is not None:
        others = sum(_whole(h, k, cells_only) + 1 for h, k in columns if h != "bot")
        bot_width = max(BOT_MIN, min(bot_width, width - others - 1))
    names = abbreviated([printable(cells["bot"]) for cells in cells_only], bot_width)
    for cells, name in zip(cells_only, names, strict=True):
        cells["bot"] = name
    for header, _ in columns:
        table.add_column(
            header,
            justify="left" if header == "bot" else "right",
            no_wrap=True,
            overflow="ellipsis",
            max_width=bot_width if header == "bot" else None,
        )
    for cells, style in lines:
        table.add_row(*(Text(cells[key]) for _, key in columns), style=style)
    return table


def abbreviated(names: Sequence[str], width: int) -> list[str]:
    """Each name in `width` columns: whole if it fits, else its start and its end around
    "…", split as evenly as leaves it telling apart from every other name (what tells two
    entries of a bot apart is mostly at the end: `random #2`, `random_bot.py --seed 1`)."""
    return [
        _abbreviated(name, width, [other for other in names if other != name]) for name in names
    ]


def _abbreviated(name: str, width: int, others: Sequence[str]) -> str:
    if len(name) <= width:
        return name
    even = (width - 1) // 2
    splits = [
        (name[: width - 1 - tail], name[len(name) - tail :])
        for tail in [*range(even, width - 1), *range(even - 1, 0, -1)]
    ]
    head, tail = next(
        (
            split
            for split in splits
            if not any(other.startswith(split[0]) and other.endswith(split[1]) for other in others)
        ),
        splits[0],
    )
    return f"{head}…{tail}"


def _fitting(
    columns: Sequence[tuple[str, str]],
    rows: Sequence[dict[str, str]],
    width: int | None,
    keep: Sequence[str] = (),
) -> list[tuple[str, str]]:
    """The columns that fit in `width` with every number whole (all of them without one),
    never leaving out those of `keep` (a sort key)."""
    kept = list(columns)

    def needed() -> int:
        return sum(
            (BOT_MIN if header == "bot" else _whole(header, key, rows)) + 1 for header, key in kept
        )

    for header in (header for header in LEAST_TELLING if header not in keep):
        if width is None or needed() <= width:
            break
        kept = [column for column in kept if column[0] != header]
    return kept


def _whole(header: str, key: str, rows: Sequence[dict[str, str]]) -> int:
    """The width of a column whose header and every cell show whole."""
    return max([len(header)] + [len(row[key]) for row in rows])


def matches_table(rows: Sequence[dict[str, Any]], title: str = "") -> Table:
    """The matches of `standings.match_rows`: id, round, each seat as "place. bot score"
    (* forfeited) in seat order, and the seats' incidents by kind; unplayed ones say so."""
    table = Table(
        title=title or None,
        header_style="bold underline",
        box=None,
        pad_edge=False,
        padding=(0, 1, 0, 0),
    )
    table.add_column("match", no_wrap=True)
    table.add_column("rnd", justify="right")
    table.add_column("seats: place. bot score (seat order)")
    table.add_column("incidents")
    for row in rows:
        if not row["played"]:
            seats = ", ".join(seat["bot"] for seat in row["seats"])
            table.add_row(
                row["match_id"],
                str(row["round"]),
                Text(printable(f"not played: {seats}")),
                "",
                style="dim",
            )
            continue
        seats = "  ".join(
            f"{seat['place']}. {seat['bot']} {seat['score']}" + ("*" if seat["forfeited"] else "")
            for seat in row["seats"]
        )
        incidents = ", ".join(
            f"{seat['bot']} {kind}"
            + (f" x{seat['incidents'].count(kind)}" if seat["incidents"].count(kind) > 1 else "")
            for seat in row["seats"]
            for kind in dict.fromkeys(seat["incidents"])
        )
        table.add_row(
            row["match_id"],
            str(row["round"]),
            Text(printable(seats)),
            Text(printable(incidents or "-")),
            style="yellow" if incidents else None,
        )
    return table


def head_to_head_table(data: dict[str, Any], order: Sequence[str], title: str = "") -> Table:
    """Row bot against column bot: "wins/games" over the matches both played, where a win
    is being placed above the other. Bots in `order` (the leaderboard's), columns numbered
    as the rows so the table keeps to 80 columns for up to 8 bots."""
    index = {bot: i for i, bot in enumerate(data["bots"])}
    ranked = [index[bot] for bot in order]
    table = Table(
        title=title or None,
        header_style="bold underline",
        box=None,
        pad_edge=False,
        padding=(0, 1, 0, 0),
        caption="row placed above column / matches both played",
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("bot", no_wrap=True, overflow="ellipsis", max_width=18)
    for number in range(1, len(ranked) + 1):
        table.add_column(str(number), justify="right", no_wrap=True)
    names = abbreviated([printable(bot) for bot in data["bots"]], 18)
    for number, a in enumerate(ranked, start=1):
        cells = [
            "·"
            if a == b
            else f"{data['wins'][a][b]}/{data['games'][a][b]}"
            if data["games"][a][b]
            else "-"
            for b in ranked
        ]
        table.add_row(str(number), Text(names[a]), *cells)
    return table


def seats_table(rows: Sequence[dict[str, Any]], title: str = "") -> Table:
    """Win share per seat position (a shared first place split), against the fair share."""
    table = Table(
        title=title or None,
        header_style="bold underline",
        box=None,
        pad_edge=False,
        padding=(0, 1, 0, 0),
        caption="a first place shared by k seats counts 1/k to each",
        caption_justify="left",
    )
    for header in ("seat", "games", "wins", "share", "fair"):
        table.add_column(header, justify="right")
    for row in rows:
        share = "-" if row["win_share"] is None else f"{row['win_share']:.1%}"
        table.add_row(
            str(row["seat"]),
            str(row["games"]),
            f"{row['wins']:g}",
            share,
            f"{row['fair_share']:.1%}",
        )
    return table


PLOT_WIDTH = 60
"""Columns of a rating plot's drawing; with its axis labels a plot is 69 columns wide."""


def history_plot(
    history: Sequence[dict[str, Any]],
    order: Sequence[str],
    height: int = 7,
    width: int = PLOT_WIDTH,
) -> Group:
    """Each bot's rating by games rated, as characters: ● mu, ░ the band mu ± 3 sigma.

    All bots share one vertical scale (so plots compare at a glance) and each spans the
    plot's width from 0 games to its last; a column shows the rating after the games at
    that point (a bot with fewer games than columns repeats each point)."""
    by_bot = {entry["bot"]: entry["points"] for entry in history}
    bands = [
        (p["mu"] - 3 * p["sigma"], p["mu"] + 3 * p["sigma"])
        for points in by_bot.values()
        for p in points
    ]
    low = min(b[0] for b in bands)
    high = max(b[1] for b in bands)
    span = (high - low) or 1.0

    def level(value: float) -> int:
        return min(height - 1, max(0, int((value - low) / span * height)))

    parts: list[Text] = []
    for bot in order:
        points = by_bot[bot]
        last = points[-1]
        parts.append(
            Text.assemble(
                (printable(bot), "bold"),
                f"  {len(points) - 1} games, mu {last['mu']:.1f} ± 3 sigma {3 * last['sigma']:.1f}",
            )
        )
        columns = [points[round(j * (len(points) - 1) / (width - 1))] for j in range(width)]
        grid = [[" "] * width for _ in range(height)]
        for x, point in enumerate(columns):
            bottom = level(point["mu"] - 3 * point["sigma"])
            top = level(point["mu"] + 3 * point["sigma"])
            for y in range(bottom, top + 1):
                grid[y][x] = "░"
            grid[level(point["mu"])][x] = "●"
        for y in reversed(range(height)):
            label = low + span * (y + 0.5) / height
            parts.append(Text(f"{label:6.1f} ┤" + "".join(grid[y])))
        parts.append(Text("       └" + "─" * width))
        parts.append(
            Text(f"        0{'games':^{width - 2 * len(str(len(points) - 1))}}{len(points) - 1}")
        )
    return Group(*parts)
