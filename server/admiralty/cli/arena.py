"""`admiralty arena`: register bots for the arena (`add`, `remove`) and read its file
(`bots`, `standings`, `matches`)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from admiralty.arena.store import MAX_CONNECTIONS, ArenaStore, MatchRow
from admiralty.cli.options import JsonOption
from admiralty.cli.output import fail, out, usage
from admiralty.cli.plain_help import Typer
from admiralty.tournament.store import StoreError

arena_app = Typer(
    help="The arena: bots registered once dial in from anywhere, and a ladder that never "
    "stops ranks them by TrueSkill. These commands register bots and read the arena's "
    "SQLite file.",
    no_args_is_help=True,
)

DbOption = Annotated[Path, typer.Option(help="The SQLite file of the arena.")]
NameArgument = Annotated[str, typer.Argument(help="The bot's registered name.")]
DB = Path("arena.db")


@contextlib.contextmanager
def arena_errors() -> Iterator[None]:
    """A database failure as one line (exit 1); a bad name or count as one usage line."""
    try:
        yield
    except StoreError as error:
        raise fail(str(error)) from None
    except ValueError as error:
        raise usage(str(error)) from None


@arena_app.command("add")
def arena_add(
    name: NameArgument,
    connections: Annotated[
        int,
        typer.Option(
            min=1, max=MAX_CONNECTIONS, help="Connections the bot may hold: matches at once."
        ),
    ] = 1,
    db: DbOption = DB,
    as_json: JsonOption = False,
) -> None:
    """Register a bot and print its key, this once: the arena keeps only its hash. The
    bot dials in with it (--key-file). A missing --db is created."""
    with arena_errors():
        key = ArenaStore(db, create=True).add(name, connections)
    if as_json:
        print(json.dumps({"bot": name, "connections": connections, "key": key, "db": str(db)}))
        return
    out.print(
        f"added bot {name} ({connections} connection{'s' * (connections != 1)}) to {db}\n"
        f"key: {key}\n"
        "This is the only time the key is shown: keep it in a file only the bot's owner "
        "can read. A lost key cannot be recovered: remove the bot and add it under a new name.",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )


@arena_app.command("remove")
def arena_remove(
    name: NameArgument,
    db: DbOption = DB,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Remove without asking.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Remove a bot: its key stops working at once (a serving arena closes its
    connections), it leaves the standings, and its matches and ratings stay. Its name
    stays taken."""
    with arena_errors():
        store = ArenaStore(db)
        if not yes:
            typer.confirm(f"Remove bot {name} from {db}? Its key stops working.", abort=True)
        store.remove(name)
    if as_json:
        print(json.dumps({"removed": name, "db": str(db)}))
    else:
        out.print(f"removed bot {name}: its key no longer works", highlight=False, markup=False)


@arena_app.command("bots")
def arena_bots(db: DbOption = DB, as_json: JsonOption = False) -> None:
    """List every bot registered, in the order added: its connections, current version,
    versions seen, when it was added and, if it was, removed (UTC)."""
    with arena_errors():
        bots = ArenaStore(db).bots()
    if as_json:
        print(json.dumps({"db": str(db), "bots": [bot.to_json() for bot in bots]}))
        return
    rows = [
        [
            b.name,
            str(b.connections),
            b.version or "-",
            str(b.versions),
            _time(b.added),
            _time(b.removed),
        ]
        for b in bots
    ]
    _print(rows, ["bot", "connections", "version", "versions", "added", "removed"], db)


@arena_app.command("standings")
def arena_standings(db: DbOption = DB, as_json: JsonOption = False) -> None:
    """Print the standings: each bot's current version's rating (TrueSkill with drift and
    a floor on sigma), sorted by mu - 3 sigma, and the games it was rated on. Removed bots
    are left out."""
    with arena_errors():
        standings = ArenaStore(db).standings()
    if as_json:
        ranked = [{"rank": i, **s.to_json()} for i, s in enumerate(standings, 1)]
        print(json.dumps({"db": str(db), "standings": ranked}))
        return
    rows = [
        [
            str(i),
            s.name,
            s.version,
            *(f"{x:.2f}" for x in (s.skill.mu, s.skill.sigma, s.skill.conservative)),
            str(s.games),
        ]
        for i, s in enumerate(standings, 1)
    ]
    _print(rows, ["rank", "bot", "version", "mu", "sigma", "mu-3σ", "games"], db)


@arena_app.command("matches")
def arena_matches(
    db: DbOption = DB,
    last: Annotated[int, typer.Option(min=1, help="How many of the latest matches.")] = 20,
    as_json: JsonOption = False,
) -> None:
    """List the latest matches, newest first: number, status (running, finished, or void:
    stopped before the end, never rated), when it started (UTC), each seat's bot and
    version with its #place and (score), and its record."""
    with arena_errors():
        matches = ArenaStore(db).matches(last)
    if as_json:
        print(json.dumps({"db": str(db), "matches": [m.to_json() for m in matches]}))
        return
    rows = [[str(m.id), m.status, _time(m.started), _seats(m), m.record or "-"] for m in matches]
    _print(rows, ["match", "status", "started", "seats", "record"], db)


def _seats(match: MatchRow) -> str:
    """Each seat as its bot and version, then, once the match finished, #place (score)."""
    seats = [f"{bot} {version}" for bot, version in match.players]
    if match.results:
        seats = [
            f"{seat} #{r.place} ({r.score})" for seat, r in zip(seats, match.results, strict=True)
        ]
    return ", ".join(seats)


def _time(at: str | None) -> str:
    return at.replace("T", " ")[:16] if at else "-"


def _print(rows: Sequence[Sequence[str]], headers: Sequence[str], db: Path) -> None:
    if not rows:
        out.print(f"none yet in {db}", highlight=False, markup=False)
        return
    table = Table(header_style="bold underline", box=None, pad_edge=False, padding=(0, 1, 0, 0))
    for header in headers:
        table.add_column(header, overflow="fold")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    out.print(table)
