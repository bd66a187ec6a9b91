"""The `admiralty` command: play matches, serve the referee, replay records."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import os
import secrets
import signal
import time
from pathlib import Path
from typing import Annotated

import grpc
import typer
from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from admiralty.console.feeds import local_listener, replay_screen, watch_remote
from admiralty.console.leaderboard import leaderboard_table
from admiralty.console.screen import MatchScreen
from admiralty.games import GAMES, IllegalAction, load_game
from admiralty.referee import (
    BotLaunchError,
    FailurePolicy,
    MatchReport,
    MatchSpec,
    check_plays,
    launch_all,
    run_match,
    stop_all,
    verify_record,
)
from admiralty.referee.launcher import STARTUP_TIMEOUT
from admiralty.referee.match import checked_options
from admiralty.referee.record import RecordError, ReplayReport
from admiralty.tournament import Settings, Store, create_tournament, leaderboard, play_tournament

app = typer.Typer(
    help="Referee and tournaments for bots playing Jamaica, Black Fleet and Blackbeard.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)

BotsOption = Annotated[
    list[str],
    typer.Option(
        "--bot",
        "-b",
        help="A bot: a Python file, a command, or grpc://host:port. Repeat once per seat.",
    ),
]
MAX_SEED = 2**256 - 1
SeedOption = Annotated[
    int | None,
    typer.Option(
        min=0,
        max=MAX_SEED,
        help="Master seed, to repeat a match exactly. Omitted, a 128-bit seed comes from a "
        "secure source; a seed a person types can be guessed by anyone who knows it.",
    ),
]
PolicyOption = Annotated[
    FailurePolicy,
    typer.Option(
        help="What to do with a late, crashed or illegal answer: default (PASS or "
        "the engine's default), random (a seeded random option), forfeit (random "
        "from then on, placed last)."
    ),
]
DeadlineOption = Annotated[float, typer.Option(help="Seconds per decision.", min=0.001)]
TimeBankOption = Annotated[
    float, typer.Option(help="Seconds per seat for the whole match.", min=0.001)
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
StartupOption = Annotated[
    float, typer.Option(help="Seconds a spawned bot has to answer Hello.", min=0.1)
]
GameArgument = Annotated[str, typer.Argument(help=f"The game: {', '.join(GAMES)}.")]


class UsageError(Exception):
    """A mistake in what the user asked for; printed as one line."""


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print one error line; exit 1 for a failure (2 for a usage mistake, see `usage`)."""
    err.print(Text.assemble(("error: ", "bold red"), message), highlight=False)
    return typer.Exit(code=code)


def usage(message: str) -> typer.Exit:
    """A mistake in what was asked for: one line, exit code 2."""
    return fail(message, code=2)


def check_game(name: str, players: int | None = None):
    try:
        game = load_game(name)
        if players is not None:
            game.check_players(players)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return game


def parse_options(pairs: list[str]) -> dict:
    """`name=value` pairs; values are read as JSON when they parse (true, 3), else text."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"--option takes name=value, got {pair!r}")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return options


@app.command()
def games() -> None:
    """List the games with their player counts."""
    table = Table("game", "players", "usual", "options")
    for name in GAMES:
        game = load_game(name)
        table.add_row(
            name,
            f"{game.min_players}-{game.max_players}",
            str(game.default_players),
            ", ".join(f"{k}={v}" for k, v in game.options.items()) or "-",
        )
    out.print(table)


@app.command()
def play(
    game: GameArgument,
    bot: BotsOption,
    seed: SeedOption = None,
    record: Annotated[
        Path | None, typer.Option(help="Where to write the match record (gzip JSON lines).")
    ] = None,
    policy: PolicyOption = FailurePolicy.DEFAULT,
    deadline: DeadlineOption = 2.0,
    time_bank: TimeBankOption = 60.0,
    option: Annotated[
        list[str],
        typer.Option("--option", "-o", help="A game option, name=value (see `admiralty games`)."),
    ] = [],  # noqa: B006
    startup_timeout: StartupOption = STARTUP_TIMEOUT,
    watch: Annotated[
        bool, typer.Option(help="Show the match live, as a spectator sees it.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Play one match between bots and print the placements."""
    try:
        check_game(game, len(bot))
        options = checked_options(game, len(bot), parse_options(option))
    except (UsageError, ValueError) as error:
        raise usage(str(error)) from None
    seed = secrets.randbits(128) if seed is None else seed
    match_id = f"{game}-{secrets.token_hex(8)}"
    spec = MatchSpec(
        match_id,
        game,
        seed,
        options,
        deadline,
        time_bank,
        policy,
        record or Path("records") / f"{match_id}.jsonl.gz",
    )
    try:
        report = asyncio.run(_play(spec, bot, startup_timeout, watch and not as_json))
    except BotLaunchError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"cannot write the record {spec.record_path}: {error.strerror}") from None
    except KeyboardInterrupt:
        raise fail(f"interrupted; the record {spec.record_path} says the match was aborted",
                   code=130) from None
    if as_json:
        print(json.dumps(report.to_json()))
    elif watch:
        out.print(f"record: {spec.record_path}")
    else:
        print_report(report)


async def _play(
    spec: MatchSpec, specs: list[str], startup_timeout: float, watch: bool
) -> MatchReport:
    bots = await launch_all(specs, startup_timeout)
    try:
        check_plays(bots, spec.game)
        clients = [bot.client for bot in bots]
        if not watch:
            return await run_match(spec, clients)
        screen = MatchScreen(
            spec.game, load_game(spec.game).static_info(), [client.name for client in clients]
        )
        with Live(screen, console=out, refresh_per_second=8):
            report = await run_match(spec, clients, [local_listener(screen)])
            screen.finish(report.to_json())
        return report
    finally:
        await stop_all(bots)


def print_report(report: MatchReport) -> None:
    data = report.to_json()
    table = Table("place", "seat", "bot", "score", title=f"{data['game']} · seed {data['seed']}")
    for p in sorted(data["placements"], key=lambda p: (p["place"], p["seat"])):
        bot = p["bot"] + (" (forfeited)" if p["forfeited"] else "")
        table.add_row(str(p["place"]), str(p["seat"]), bot, str(p["score"]))
    out.print(table)
    for incident in data["incidents"]:
        out.print(f"incident: seat {incident['seat']} {incident['kind']}: {incident['detail']}")
    if data["record"]:
        out.print(f"record: {data['record']}")


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A match record (.jsonl.gz).")],
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Only re-run the engine and check every event and digest; "
            "exit 1 on any difference.",
        ),
    ] = False,
    speed: Annotated[
        float, typer.Option(help="Events per second; 0 shows the end at once.", min=0)
    ] = 20.0,
    step: Annotated[
        bool, typer.Option("--step", help="Advance one decision per Enter key.")
    ] = False,
) -> None:
    """Show a recorded match as a spectator saw it, or --verify it. A record cut short (an
    interrupted match, a killed referee) is shown up to where it ends."""
    if not record.is_file():
        raise usage(f"no such record: {record}")
    try:
        if not verify:
            replay_screen(record, out, speed, step)
            return
        report = verify_record(record)
    except RecordError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{record}: cannot read it: {error.strerror or error}") from None
    except (ValueError, KeyError, TypeError, IllegalAction) as error:
        raise fail(f"{record}: not a readable match record ({error})") from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None
    for mismatch in report.mismatches:
        err.print(f"mismatch: {mismatch}", highlight=False)
    out.print(
        f"{report.header['game']} seed {report.header['seed']}: {report.steps} decisions, "
        f"{report.digests_checked} digests checked, {_verdict(report)}", highlight=False)
    if not report.ok:
        raise typer.Exit(code=1)


def _verdict(report: ReplayReport) -> str:
    if report.mismatches:
        return f"{len(report.mismatches)} mismatches"
    if not report.complete:
        return f"incomplete: no result ({report.ending})"
    return "OK"


@app.command()
def watch(
    match_id: Annotated[str, typer.Argument(help="The match, as listed by the referee.")],
    server: Annotated[str, typer.Option(help="The referee's address.")] = "127.0.0.1:50051",
    token: Annotated[
        str,
        typer.Option(
            "--omniscient",
            help="The admin token `admiralty serve` printed; shows everything.",
            metavar="TOKEN",
        ),
    ] = "",
    tls_ca: Annotated[
        Path | None,
        typer.Option(help="Connect over TLS, trusting these PEM root certificates "
                     "(the server's --tls-cert, if self-signed)."),
    ] = None,
) -> None:
    """Follow a match on a referee server live, as a spectator."""
    try:
        roots = tls_ca.read_bytes() if tls_ca is not None else None
        watch_remote(server, match_id, token, out, roots)
    except OSError as error:
        raise usage(f"cannot read {tls_ca}: {error.strerror or error}") from None
    except grpc.RpcError as error:
        raise fail(f"{server}: {error.code().name.lower()}: {error.details()}") from None
    except ValueError as error:
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 50051,
    records: Annotated[Path, typer.Option(help="Directory for match records.")] = Path("records"),
    tls_cert: Annotated[
        Path | None, typer.Option(help="PEM certificate chain: serve over TLS (with --tls-key).")
    ] = None,
    tls_key: Annotated[Path | None, typer.Option(help="PEM private key of --tls-cert.")] = None,
) -> None:
    """Run the referee server (RefereeService) until interrupted (Ctrl-C or SIGTERM).

    Every call but Watch needs the admin token printed at start, sent as the metadata
    `authorization: Bearer TOKEN`; Watch shows the public view, or everything with the token.
    The token travels in clear text unless the server has --tls-cert and --tls-key.
    """
    from admiralty.referee.service import serve_referee

    tls = _tls_pair(tls_cert, tls_key)
    if tls is None and not _is_loopback(host):
        err.print(f"warning: serving on {host} without TLS: the admin token and every match "
                  "cross the network in clear text (see --tls-cert)", style="yellow",
                  highlight=False)
    token = secrets.token_urlsafe(24)

    async def main() -> None:
        server = await serve_referee(host, port, token, records, tls)
        stopped = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stopped.set)
        out.print(f"referee listening on {host}:{port}" + (" (TLS)" if tls else ""))
        out.print(f"admin token: {token}")
        await stopped.wait()
        out.print("stopping: running matches are abandoned")
        await server.stop(grace=1.0)

    try:
        asyncio.run(main())
    except OSError as error:
        raise fail(str(error)) from None


def _tls_pair(cert: Path | None, key: Path | None) -> tuple[bytes, bytes] | None:
    """(key, certificate chain) as gRPC wants them, or None without TLS."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise usage("TLS needs both --tls-cert and --tls-key")
    try:
        return key.read_bytes(), cert.read_bytes()
    except OSError as error:
        raise usage(f"cannot read {error.filename}: {error.strerror}") from None


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


tournament_app = typer.Typer(
    help="Round-robin tournaments, ranked by TrueSkill and stored in SQLite.",
    no_args_is_help=True,
)
app.add_typer(tournament_app, name="tournament")
DbOption = Annotated[Path, typer.Option(help="The SQLite file holding tournaments.")]
CORES = os.cpu_count() or 1
ParallelOption = Annotated[
    int, typer.Option(help="Matches played at once (default: the cores).", min=1)
]


@tournament_app.command("run")
def tournament_run(
    game: GameArgument,
    bot: BotsOption,
    players: Annotated[
        int | None,
        typer.Option(help="Seats per match; default: the game's usual count, clamped to the pool."),
    ] = None,
    rounds: Annotated[int, typer.Option(help="Rounds, each with fresh seeds.", min=1)] = 1,
    seed: SeedOption = None,
    parallel: ParallelOption = CORES,
    db: DbOption = Path("admiralty.db"),
    name: Annotated[
        str | None, typer.Option(help="The tournament's name; default GAME-SEED.")
    ] = None,
    policy: PolicyOption = FailurePolicy.DEFAULT,
    deadline: DeadlineOption = 2.0,
    time_bank: TimeBankOption = 60.0,
    rating: Annotated[
        str, typer.Option(help="trueskill, or openskill if installed.")
    ] = "trueskill",
    option: Annotated[
        list[str], typer.Option("--option", "-o", help="A game option, name=value.")
    ] = [],  # noqa: B006
    records: Annotated[Path, typer.Option(help="Directory for match records.")] = Path("records"),
    as_json: JsonOption = False,
) -> None:
    """Plan a round-robin tournament (every K-subset of bots, every seat rotation, shared
    seeds), store the plan, play it, and print the leaderboard."""
    seed = secrets.randbits(32) if seed is None else seed
    name = name or f"{game}-{seed}"
    store = Store(db)
    try:
        check_game(game)
        settings = Settings(
            policy=policy.value,
            deadline=deadline,
            time_bank=time_bank,
            rating=rating,
            options=parse_options(option),
            records=str(records),
        )
        create_tournament(store, name, game, bot, players, rounds, seed, settings)
    except (UsageError, ValueError, BotLaunchError) as error:
        raise fail(str(error)) from None
    _play_tournament(store, name, parallel, as_json)


@tournament_app.command("resume")
def tournament_resume(
    name: Annotated[str, typer.Argument(help="The tournament to finish.")],
    db: DbOption = Path("admiralty.db"),
    parallel: ParallelOption = CORES,
    as_json: JsonOption = False,
) -> None:
    """Finish a stopped tournament: every planned match without a result is played."""
    store = Store(db)
    try:
        store.tournament(name)
    except ValueError as error:
        raise fail(str(error)) from None
    _play_tournament(store, name, parallel, as_json)


@tournament_app.command("show")
def tournament_show(
    name: Annotated[str, typer.Argument(help="The tournament to show.")],
    db: DbOption = Path("admiralty.db"),
    as_json: JsonOption = False,
) -> None:
    """Print a tournament's leaderboard, sorted by mu - 3 sigma."""
    if not db.exists():
        raise fail(f"no database {db}")
    try:
        _print_leaderboard(Store(db), name, as_json)
    except ValueError as error:
        raise fail(str(error)) from None


def _print_leaderboard(store: Store, name: str, as_json: bool) -> None:
    tournament = store.tournament(name)
    rows = leaderboard(store, name)
    if as_json:
        print(
            json.dumps(
                {
                    "tournament": name,
                    "game": tournament.game,
                    "seed": tournament.seed,
                    "planned": len(store.plan(name)),
                    "finished": len(store.results(name)),
                    "standings": [row.to_json(rank) for rank, row in enumerate(rows, start=1)],
                }
            )
        )
    else:
        out.print(leaderboard_table(rows, title=f"{name} · {tournament.game}"))


def _play_tournament(store: Store, name: str, parallel: int, as_json: bool) -> None:
    planned, finished = len(store.plan(name)), len(store.results(name))
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=as_json,
    )
    task = progress.add_task(name, total=planned, completed=finished)
    board = Live(console=err, refresh_per_second=4, transient=True)
    shown = [0.0]

    def redraw(force: bool = False) -> None:
        if not as_json and (force or time.monotonic() - shown[0] > 1.0):
            shown[0] = time.monotonic()
            board.update(Group(leaderboard_table(leaderboard(store, name)), progress))

    def on_result(match) -> None:
        progress.advance(task)
        redraw()

    try:
        with contextlib.nullcontext() if as_json else board:
            redraw(force=True)
            asyncio.run(play_tournament(store, name, parallel, on_result))
    except BotLaunchError as error:
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        done = len(store.results(name))
        err.print(
            f"stopped: {done} of {planned} matches finished and kept; "
            f"continue with `admiralty tournament resume {name}`"
        )
        raise typer.Exit(code=130) from None
    _print_leaderboard(store, name, as_json)


def main() -> None:
    try:
        app()
    except UsageError as error:
        raise SystemExit(usage(str(error)).exit_code) from None


if __name__ == "__main__":
    main()
