"""`admiralty arena`: register bots for the arena (`add`, `remove`), serve it (`serve`) and
read its file (`bots`, `standings`, `matches`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Coroutine, Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from admiralty.arena.ladder import NewVersion, Play, run_ladder
from admiralty.arena.lobby import Limits, Lobby
from admiralty.arena.store import MAX_CONNECTIONS, ArenaStore, MatchRow
from admiralty.cli.options import (
    DeadlineOption,
    GameArgument,
    GameOptionsOption,
    JsonOption,
    PolicyOption,
    SeedOption,
    TimeBankOption,
    check_game,
    parse_options,
)
from admiralty.cli.output import fail, out, usage
from admiralty.cli.plain_help import Typer
from admiralty.cli.serve import (
    HostOption,
    KeepFinishedOption,
    PortOption,
    RecordsOption,
    TlsCertOption,
    TlsKeyOption,
    TokenFileOption,
    admin_token,
    listening_checks,
    until_signalled,
)
from admiralty.referee import FailurePolicy
from admiralty.referee.match import MatchReport, checked_options
from admiralty.referee.service import RefereeServicer
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
PORT = 50070


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


@arena_app.command("serve")
def arena_serve(
    game: GameArgument,
    players: Annotated[int, typer.Option(min=2, help="Seats per match.")] = 2,
    db: DbOption = DB,
    records: RecordsOption = Path("records"),
    host: HostOption = "127.0.0.1",
    port: PortOption = PORT,
    max_matches: Annotated[int, typer.Option(min=1, help="Matches played at once.")] = 16,
    matches: Annotated[
        int | None,
        typer.Option(
            min=1, show_default=False, help="Stop once this many matches have ended: a trial."
        ),
    ] = None,
    seed: SeedOption = None,
    option: GameOptionsOption = [],  # noqa: B006 (typer reads the default; never mutated)
    deadline: DeadlineOption = 2.0,
    time_bank: TimeBankOption = 60.0,
    policy: PolicyOption = FailurePolicy.DEFAULT,
    on_new_version: Annotated[
        NewVersion,
        typer.Option(
            help="A bot that dials in with a version never seen: keep its rating so far, "
            "or reset it to the initial one."
        ),
    ] = NewVersion.KEEP,
    streams_per_address: Annotated[
        int, typer.Option(min=1, help="Streams one address may hold open at once.")
    ] = Limits.streams_per_address,
    unanswered_per_address: Annotated[
        int,
        typer.Option(min=1, help="Streams one address may hold that have not answered Hello."),
    ] = Limits.unanswered_per_address,
    keep_finished: KeepFinishedOption = 1000,
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    token_file: TokenFileOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No line per match.")] = False,
) -> None:
    """Run the arena of GAME until interrupted (Ctrl-C or SIGTERM): the bots registered in
    --db dial in here with their keys, and whenever enough of them are free a match starts
    (several at once), is rated and stored. Matches in flight when it stops are void.

    The same port serves the referee's ListMatches, GetMatch and Watch of the arena's
    matches, with the admin token printed at start, as `admiralty serve` does: `admiralty
    web --server`, `watch` and `match list` show them live. One process serves a file at a
    time; one killed is taken over by the next.
    """
    from admiralty.arena.serve import serve

    check_game(game, players)
    with arena_errors():
        options = checked_options(game, players, parse_options(option))
    tls = listening_checks(host, tls_cert, tls_key)
    with arena_errors():
        store = ArenaStore(db)
    token = admin_token(token_file)
    arena_seed = secrets.randbits(128) if seed is None else seed

    def ladder(lobby: Lobby, play: Play) -> Coroutine[Any, Any, int]:
        return run_ladder(
            store,
            lobby,
            game,
            players,
            records=records,
            max_matches=max_matches,
            seed=arena_seed,
            options=options,
            deadline=deadline,
            time_bank=time_bank,
            policy=policy,
            new_version=on_new_version,
            matches=matches,
            notify=_quiet if quiet else _print_match,
            play=play,
        )

    def listening() -> None:
        where = f"{host}:{port}" + (" (TLS)" if tls else "")
        out.print(f"arena of {game} ({db}) listening on {where}", highlight=False)
        out.print(f"admin token: {token}", highlight=False)

    async def main() -> None:
        stopped = until_signalled()
        referee = RefereeServicer(token, keep_finished=keep_finished, creates=False)
        await serve(
            store,
            Lobby(store.authenticate, Limits(streams_per_address, unanswered_per_address)),
            ladder,
            (host, port),
            referee,
            stopped,
            tls=tls,
            listening=listening,
        )
        if stopped.is_set():
            out.print("stopped: the matches in flight are void", highlight=False)

    with arena_errors():
        try:
            asyncio.run(main())
        except OSError as error:
            raise fail(str(error)) from None


def _quiet(number: int, outcome: MatchReport | BaseException) -> None:
    """No line per match (--quiet)."""


def _print_match(number: int, outcome: MatchReport | BaseException) -> None:
    """One line per match that ends: its seats by place, or why it is void."""
    if isinstance(outcome, MatchReport):
        seats = sorted(zip(outcome.places, outcome.bot_names, outcome.scores, strict=True))
        line = ", ".join(f"#{place} {name} ({score})" for place, name, score in seats)
        out.print(f"match {number}: {line}", highlight=False, markup=False)
    elif not isinstance(outcome, asyncio.CancelledError):
        out.print(f"match {number} void: {outcome}", highlight=False, markup=False)


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
