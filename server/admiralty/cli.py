"""The `admiralty` command: play matches, serve the referee, replay records."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import os
import secrets
import signal
import socket
import time
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any

import admiralty.grpc_quiet  # noqa: F401  (first: grpc reads GRPC_VERBOSITY on import)

# isort: split
import grpc
import typer
from google.protobuf import json_format
from rich.console import Console, Group
from rich.live import Live
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from admiralty import cli_help
from admiralty.console import interactive
from admiralty.console.feeds import (
    LocalFeed,
    Pacer,
    export,
    live_display,
    replay_screen,
    watch_remote,
)
from admiralty.console.leaderboard import (
    head_to_head_table,
    history_plot,
    leaderboard_table,
    matches_table,
    seats_table,
)
from admiralty.console.screen import MatchScreen, incidents_table, solo_verdict
from admiralty.games import GAMES, GameInfo, IllegalAction, load_game
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
from admiralty.referee.conformance import Conformance, Result, check_bot
from admiralty.referee.launcher import STARTUP_TIMEOUT, Isolation
from admiralty.referee.match import checked_options
from admiralty.referee.record import RecordError, ReplayReport, open_private, private_dir
from admiralty.referee.remote import remote_referee
from admiralty.referee.timeline import NoSuchSeat, read_timeline, request_steps
from admiralty.text import display_names, printable
from admiralty.tournament import (
    RANKING,
    Deals,
    Runner,
    Settings,
    Store,
    StoreError,
    WorkerError,
    default_players,
    leaderboard,
    new_tournament,
    resume_tournament,
    start_tournament,
)
from admiralty.tournament.adaptive import Schedule
from admiralty.tournament.backend import BackendName, make_backend
from admiralty.tournament.ratings import rater_of
from admiralty.tournament.runner import (
    LiveLeaderboard,
    RecordsError,
    bot_names,
    stop_reason,
    summaries,
)
from admiralty.tournament.standings import (
    head_to_head,
    live_standings,
    match_rows,
    rating_history,
    seat_win_rates,
)
from admiralty_sdk.local import load_bot, run_local

app = cli_help.Typer(
    help="Referee and tournaments for bots playing Jamaica, Black Fleet and Blackbeard.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True, soft_wrap=True)


def _print_version(asked: bool) -> None:
    """`--version`: the installed distribution's version, before any command runs."""
    if asked:
        out.print(f"admiralty {metadata.version('admiralty')}", highlight=False)
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """The options that come before a command."""

BotsOption = Annotated[
    list[str],
    typer.Option(
        "--bot",
        "-b",
        help="A bot: a Python file, a command (its port goes where it says {port}, else "
        "--port N is appended), stdio:COMMAND for a bot speaking JSON lines, or "
        "grpc://host:port. Repeat once per seat.",
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
DAY = 86_400.0
"""The most seconds any time option takes."""


def within(least: float, most: float = DAY) -> Callable[[typer.CallbackParam, float], float]:
    """An option callback: a number from `least` to `most`, or one usage line. It replaces
    Typer's range check, which lets inf and nan through (a deadline of inf would hang a match
    for ever, nan break its clock) and prints its refusals over four lines."""
    def check(param: typer.CallbackParam, value: float) -> float:
        if not least <= value <= most:  # false for nan too
            name = param.opts[0] if param.opts else param.name
            raise usage(f"{name} {value:g}: give a number from {least:g} to {most:g}")
        return value

    return check


DeadlineOption = Annotated[
    float, typer.Option(help="Seconds per decision (0.001 to 86400).", callback=within(0.001),
                        metavar="SECONDS")
]
TimeBankOption = Annotated[
    float, typer.Option(help="Seconds per seat for the whole match (0.001 to 86400).",
                        callback=within(0.001), metavar="SECONDS")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
StartupOption = Annotated[
    float, typer.Option(help="Seconds a spawned bot has to answer Hello (0.1 to 86400).",
                        callback=within(0.1), metavar="SECONDS")
]
GameOptionsOption = Annotated[
    list[str],
    typer.Option("--option", "-o", metavar="NAME=VALUE", help="A game option (`admiralty "
                 "games GAME` lists them); repeat it for each."),
]
BotUserOption = Annotated[
    str | None,
    typer.Option("--bot-user", metavar="USER", show_default=False,
                 help="Run every bot admiralty starts as USER (admiralty must run as root), in "
                 "a working directory of USER's: it cannot read files only you may read."),
]
SandboxOption = Annotated[
    bool,
    typer.Option("--sandbox", help="Start every bot in a bubblewrap (bwrap) sandbox of its "
                 "own: its own directory, no view of your processes or files (the system's "
                 "are read-only), no network but the referee's connection to it. For "
                 "untrusted bots; docs/security.md says what it sees."),
]
GameArgument = Annotated[str, typer.Argument(help=f"The game: {', '.join(GAMES)}.")]
SeatViewOption = Annotated[
    int | None,
    typer.Option("--seat", min=0, help="Show the match as this seat saw it: its own cards, "
                 "each request it got (kind, prompt, options by key and label), the option "
                 "applied, its latency and incidents. Omitted, as a spectator sees it."),
]
LegendOption = Annotated[
    bool, typer.Option("--legend", help="Show what every glyph of the board means.")
]
ExportOption = Annotated[
    Path | None,
    typer.Option("--export", help="Write a page titled with the match (game, seats, seed "
                 "or match id, result) holding the final screen, the legend and the whole log "
                 "to this file: HTML, or SVG if it ends in .svg. A replay then writes the page "
                 "only, without playing the match on the terminal first.", dir_okay=False),
]
EXPORT_SUFFIXES = (".html", ".htm", ".svg")


@dataclass(frozen=True)
class Display:
    """How a match is shown: as which seat (None: a spectator), with the legend, and the
    file the final screen is exported to."""

    seat: int | None = None
    legend: bool = False
    export: Path | None = None

    def check(self, seats: int | None = None) -> None:
        """Usage errors before anything starts: a seat the match lacks, an export file of
        another kind or in a directory that cannot be written."""
        if self.seat is not None and seats is not None and self.seat >= seats:
            raise usage(f"--seat {self.seat}: the match has seats 0 to {seats - 1}")
        if self.export is not None:
            if self.export.suffix.lower() not in EXPORT_SUFFIXES:
                raise usage(f"--export {self.export}: the file must end in .html or .svg")
            if not os.access(self.export.parent, os.W_OK):
                raise usage(f"--export {self.export}: cannot write in {self.export.parent}")

    def finish(self, screen: MatchScreen) -> None:
        """Off a terminal the whole transcript (the live screen was not drawn); then the
        export, if asked for."""
        if not out.is_terminal:
            out.print(screen.transcript(), soft_wrap=False)
        self.save(screen)

    def save(self, screen: MatchScreen) -> None:
        """The export, if asked for."""
        if self.export is not None:
            try:
                export(screen, self.export, max(out.width, 100), max(out.height, 40))
            except OSError as error:
                raise fail(f"cannot write {self.export}: {error.strerror}") from None
            out.print(f"exported: {self.export}", highlight=False, soft_wrap=True)


class UsageError(Exception):
    """A mistake in what the user asked for; printed as one line."""


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print one error line (a bot's stderr under it, each of its control characters
    escaped); exit 1 for a failure (2 for a usage mistake, see `usage`)."""
    err.print(Text.assemble(("error: ", "bold red"), printable(message, lines=True)),
              highlight=False)
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


def check_writable(path: Path) -> None:
    """Fail before any bot starts if a record cannot be written at `path`."""
    try:
        private_dir(path.parent)
    except OSError as error:
        raise fail(f"cannot create {path.parent}: {error.strerror}") from None
    if path.is_dir() or not os.access(path.parent, os.W_OK):
        raise fail(f"cannot write the record {path}")


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
def games(
    game: Annotated[str | None, typer.Argument(
        help="A game to describe: its players, hidden information, windows, automated "
        "actors and options.", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the same as one JSON object, "
                                          "{\"games\": [...]}, every detail included.")] = False,
) -> None:
    """List the games, one line each; with GAME, the details of that one."""
    try:
        infos = [check_game(game).info] if game else [load_game(name).info for name in GAMES]
    except UsageError as error:
        raise usage(str(error)) from None
    if as_json:
        print(json.dumps({"games": [info.to_json() for info in infos]}))
    elif game:
        print_game_info(infos[0])
    else:
        table = Table("game", "players", "about", box=None, pad_edge=False,
                      header_style="bold underline")
        for info in infos:
            table.add_row(info.name, f"{info.min_players}-{info.max_players}", info.summary)
        out.print(table)
        out.print("`admiralty games GAME` describes one: its options, windows and automated "
                  "actors.", highlight=False, markup=False)


def print_game_info(info: GameInfo) -> None:
    """One game: its summary, a line of facts, its automated actors, then each option (name,
    default, what it takes) over its meaning. All as plain text: rich would read a rule
    citation such as [jamaica G6] as markup and drop it."""
    def show(text: Text, indent: int = 0) -> None:
        out.print(Padding(text, (0, 0, 0, indent), expand=False))

    hidden = "hidden" if info.hidden_information else "perfect"
    show(Text.assemble((info.name, "bold"), f" ({info.title}): {info.summary}"))
    show(Text(f"{info.min_players}-{info.max_players} players, usually "
              f"{info.default_players}; {hidden} information; windows "
              f"{', '.join(info.windows)}"), 2)
    for actor in info.automated:
        show(Text(f"automated: {actor.name}, in {'/'.join(map(str, actor.players))}-player "
                  f"games; decided by {actor.decided_by}"), 2)
    show(Text("options (play --option NAME=VALUE):", style="bold"))
    for spec in (spec.to_json() for spec in info.options):
        show(Text.assemble((spec["name"], "bold"), f" = {json.dumps(spec['default'])}",
                           (f" ({spec['takes']})", "dim")), 2)
        show(Text(spec["help"]), 6)


@app.command()
def play(
    game: GameArgument,
    bot: BotsOption,
    players: Annotated[
        int | None,
        typer.Option(help="Seats; it must match the number of --bot (so it may be left out). "
                     "--players 1 plays a one-seat game (Blackbeard solitaire) against the "
                     "game's automated opponent; the score is the margin over it.", min=1),
    ] = None,
    seed: SeedOption = None,
    record: Annotated[
        Path | None, typer.Option(help="Where to write the match record (gzip JSON lines).")
    ] = None,
    policy: PolicyOption = FailurePolicy.DEFAULT,
    deadline: DeadlineOption = 2.0,
    time_bank: TimeBankOption = 60.0,
    option: GameOptionsOption = [],  # noqa: B006
    startup_timeout: StartupOption = STARTUP_TIMEOUT,
    bot_user: BotUserOption = None,
    sandbox: SandboxOption = False,
    watch: Annotated[
        bool, typer.Option("--watch", help="Show the match live, as a spectator sees it (or "
                           "as --seat sees it). Off a terminal, print the whole log and the "
                           "result.")
    ] = False,
    seat: SeatViewOption = None,
    delay: Annotated[
        float, typer.Option(callback=within(0), metavar="SECONDS", help="With --watch, "
                            "seconds each step that adds to the log stays on screen (0: as "
                            "fast as the bots play; at most 86400). The bots' clocks do not "
                            "run meanwhile.")
    ] = 0.5,
    legend: LegendOption = False,
    export_to: ExportOption = None,
    as_json: JsonOption = False,
    local: Annotated[
        bool, typer.Option("--local", help="Play in this process, without gRPC: each --bot "
                           "is a Python file defining one Bot subclass (built with no "
                           "arguments); the clock stands still (see admiralty_sdk.local).")
    ] = False,
) -> None:
    """Play one match between bots and print the placements. A one-seat match prints
    whether the bot won or lost against the automated opponent, and the margin.

    With --watch the match is shown live (--seat N: as seat N saw it); --seed with
    deterministic bots repeats the same match."""
    if players is not None and players != len(bot):
        raise usage(f"--players {players} needs {players} --bot, got {len(bot)}")
    display = Display(seat, legend, export_to)
    display.check(len(bot))
    if as_json and (seat is not None or export_to is not None):
        raise usage("--seat and --export show the match; they do not go with --json")
    watch = watch or seat is not None or export_to is not None
    if local and watch:
        raise usage("--watch, --seat and --export show a match of bot processes; "
                    "leave them out with --local")
    if local and (bot_user is not None or sandbox):
        raise usage("--bot-user and --sandbox isolate bot processes; --local starts none")
    try:
        check_game(game, len(bot))
        options = checked_options(game, len(bot), parse_options(option))
        Isolation(bot_user, sandbox).check()
    except (UsageError, ValueError) as error:
        raise usage(str(error)) from None
    seed = secrets.randbits(128) if seed is None else seed
    match_id = f"{game}-{secrets.token_hex(8)}"
    record = record or Path("records") / f"{match_id}.jsonl.gz"
    check_writable(record)
    spec = MatchSpec(
        match_id,
        game,
        seed,
        options,
        deadline,
        time_bank,
        policy,
        record,
    )
    try:
        if local:
            report = _play_local(spec, bot)
        else:
            report = asyncio.run(_play(spec, bot, startup_timeout,
                                       Isolation(bot_user, sandbox),
                                       display if watch and not as_json else None, delay))
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
        out.print(f"record: {spec.record_path}", highlight=False, soft_wrap=True)
    else:
        print_report(report)


async def _play(
    spec: MatchSpec, specs: list[str], startup_timeout: float, isolation: Isolation,
    display: Display | None, delay: float
) -> MatchReport:
    bots = await launch_all(specs, startup_timeout, isolation=isolation)
    try:
        check_plays(bots, spec.game)
        clients = [bot.client for bot in bots]
        if display is None:
            return await run_match(spec, clients)
        screen = MatchScreen(spec.game, load_game(spec.game).static_info(),
                             [client.name for client in clients], display.seat, display.legend,
                             spec.seed, spec.match_id)
        with live_display(screen, out) as shown:
            feed = LocalFeed(screen, display.seat, Pacer(delay if shown else 0),
                             shown.refresh if shown else lambda: None)
            report = await run_match(spec, clients, [feed.stepped], [feed.decided])
            screen.finish(report.to_json())
        display.finish(screen)
        return report
    finally:
        await stop_all(bots)


def _play_local(spec: MatchSpec, paths: list[str]) -> MatchReport:
    """`play --local`: the bots are Python files, played in this process."""
    try:
        return asyncio.run(run_local(spec, [load_bot(path) for path in paths])).report
    except ValueError as error:
        raise usage(str(error)) from None


def print_report(report: MatchReport) -> None:
    data = report.to_json()
    steps = request_steps(report.spec.record_path) if data["record"] and data["incidents"] \
        else {}
    print_result(data, title=f"{data['game']} · seed {data['seed']}", steps=steps)
    if data["record"]:
        out.print(f"record: {data['record']}")


def print_result(result: dict, title: str | None = None,
                 steps: Mapping[tuple[int, str], int] | None = None) -> None:
    """The placements (place, seat, bot, score, forfeited) as a table, then the incidents
    by seat and kind (their steps from `steps`, as `request_steps` reads them); for one
    seat, its margin and whether it won against the automated opponent. A bot in two seats
    is named as everywhere else (`display_names`)."""
    if len(result["placements"]) == 1:
        table = Table("seat", "bot", "margin", "result", title=title)
        (p,) = result["placements"]
        table.add_row(str(p["seat"]), Text(printable(p["bot"])), f"{int(p['score']):+d}",
                      solo_verdict(result["game"], p))
        out.print(table)
        _print_incidents(result, steps or {})
        return
    table = Table("place", "seat", "bot", "score", title=title)
    names = display_names([p["bot"] for p in sorted(result["placements"],
                                                     key=lambda p: p["seat"])])
    for p in sorted(result["placements"], key=lambda p: (p["place"], p["seat"])):
        bot = names[p["seat"]] + (" (forfeited)" if p["forfeited"] else "")
        table.add_row(str(p["place"]), str(p["seat"]), Text(printable(bot)), str(p["score"]))
    out.print(table)
    _print_incidents(result, steps or {})


def _print_incidents(result: dict, steps: Mapping[tuple[int, str], int]) -> None:
    if result.get("incidents"):
        out.print(incidents_table(result["incidents"], steps))


@app.command("check-bot")
def check_bot_command(
    bot: Annotated[
        str, typer.Argument(help="The bot: a Python file, a command, or grpc://host:port.")
    ],
    deadline: DeadlineOption = 2.0,
    matches: Annotated[
        int, typer.Option(help="Matches per game played one at a time, and again at once.",
                          min=1)
    ] = 3,
    seed: Annotated[
        int | None,
        typer.Option(min=0, max=MAX_SEED, help="Seed of the matches, to repeat a check. "
                     "Omitted, a 128-bit one from a secure source (it is printed)."),
    ] = None,
    startup_timeout: StartupOption = STARTUP_TIMEOUT,
    bot_user: BotUserOption = None,
    sandbox: SandboxOption = False,
    as_json: JsonOption = False,
) -> None:
    """Check that a bot keeps the protocol before it plays for real.

    The bot plays every game it plays (Hello `games`; none listed is every game) against
    reference bots: --matches matches one at a time, as many at once, and one in which it
    holds several seats. Checks: hello (name, version, registered games),
    request-id-echo, deadline (and the p95 latency),
    legal-index:turn|interrupt|sealed|setup (a legal option in each window kind; one never
    asked is NOT EXERCISED, with why), concurrent-matches and concurrent-seats (no failure
    beyond those of one match at a time), match-over (MatchOver returns OK), match-info
    (requests with and without match_info answered), auto-pass (declared kinds are never
    asked) and no-crash.
    Exit 1 if any check FAILs.
    """
    seed = secrets.randbits(128) if seed is None else seed
    status = err.status(f"checking {bot}")  # shown on a terminal only, never with --json
    try:
        with contextlib.nullcontext() if as_json else status:
            report = asyncio.run(check_bot(
                bot, seed, deadline, matches, startup_timeout, Isolation(bot_user, sandbox),
                progress=lambda stage: status.update(f"checking {bot}: {stage}")))
    except BotLaunchError as error:
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None
    if as_json:
        print(json.dumps(report.to_json()))
    else:
        print_conformance(report)
    if report.failed:
        raise typer.Exit(code=1)


RESULT_STYLES = {Result.PASS: "green", Result.FAIL: "bold red", Result.NOT_EXERCISED: "yellow"}


def print_conformance(report: Conformance) -> None:
    table = Table("check", "result", "reason", title=Text(printable(
        f"{report.name or report.spec} {report.version} · "
        f"{', '.join(report.games) or 'no game'}")))
    for check in report.checks:
        table.add_row(check.id, Text(str(check.result), RESULT_STYLES[check.result]),
                      Text(printable(check.reason)))
    out.print(table)
    counts = {result: sum(c.result is result for c in report.checks) for result in Result}
    out.print(f"{counts[Result.PASS]} passed, {counts[Result.FAIL]} failed, "
              f"{counts[Result.NOT_EXERCISED]} not exercised · seed {report.seed}",
              highlight=False, soft_wrap=True)


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
        float, typer.Option(help="Steps that add to the log shown per second (the pace of "
                            "`play --watch --delay 1/SPEED`); 0 shows the end at once.",
                            callback=within(0, 1e6))
    ] = 20.0,
    step: Annotated[
        bool, typer.Option("--step", help="On a terminal, the interactive replay (paused at "
                           "the setup); off one, the transcript as without it.")
    ] = False,
    interactive_: Annotated[
        bool, typer.Option("--interactive", "-i", help="Replay under keys: space play/pause, "
                           "→/n and ←/p a step, g N Enter a round, s N Enter a step, d the "
                           "seat's next decision, i the next incident, l the legend, q quit.")
    ] = False,
    seat: SeatViewOption = None,
    legend: LegendOption = False,
    export_to: ExportOption = None,
) -> None:
    """Show a recorded match as a spectator saw it (or as --seat saw it), or --verify it.
    A record cut short (an interrupted match, a killed referee) is shown up to where it
    ends. Off a terminal, print the whole log and the result. With --export (and without
    --interactive), only write the page."""
    if not record.is_file():
        raise usage(f"no such record: {record}")
    display = Display(seat, legend, export_to)
    display.check()
    terminal = out.is_terminal and os.isatty(0)
    if interactive_ and not terminal:
        raise usage("--interactive reads keys and draws on a terminal; this is not one "
                    "(without it, the replay is written as text)")
    try:
        if not verify:
            _replay(record, display, speed, (step or interactive_) and terminal)
            return
        report = verify_record(record)
    except NoSuchSeat as error:
        raise usage(str(error)) from None
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
        f"{report.digests_checked} digests checked, {_verdict(report)}", highlight=False,
        soft_wrap=True)
    if not report.ok:
        raise typer.Exit(code=1)


def _replay(record: Path, display: Display, speed: float, keys: bool) -> None:
    """The replay: under keys, paced on a terminal, or as a transcript; with an export and
    no keys, the export only (the end is computed, not played)."""
    delay = 1 / speed if speed else 0.0
    if keys:
        timeline = read_timeline(record, display.seat)
        display.finish(interactive.run(timeline, out, delay, display.legend))
        return
    if display.export is not None:
        display.save(replay_screen(record, None, display.seat, legend=display.legend))
        return
    display.finish(replay_screen(record, out, display.seat, delay, legend=display.legend))


def _verdict(report: ReplayReport) -> str:
    if report.mismatches:
        return f"{len(report.mismatches)} mismatches"
    if not report.complete:
        return f"incomplete: no result ({report.ending})"
    return "OK"


ServerOption = Annotated[
    str, typer.Option(envvar="ADMIRALTY_SERVER", metavar="HOST:PORT",
                      help="The address of the referee (`admiralty serve`); or set "
                      "ADMIRALTY_SERVER.")
]
TlsCaOption = Annotated[
    Path | None,
    typer.Option(help="Connect over TLS, trusting these PEM root certificates "
                 "(the server's --tls-cert, if self-signed)."),
]
def _warn_if_typed(ctx: typer.Context, token: str | None) -> str | None:
    """A token typed on the command line can be read by every user of this machine (ps):
    one warning line, and the token."""
    source = ctx.get_parameter_source("token")
    if token is not None and source is not None and source.name == "COMMANDLINE":
        err.print("warning: a token typed as --token can be read by every user of this "
                  "machine (ps); set ADMIRALTY_TOKEN or use --token-file", style="yellow",
                  highlight=False, soft_wrap=True)
    return token


TokenOption = Annotated[
    str | None,
    typer.Option("--token", envvar="ADMIRALTY_TOKEN", metavar="TOKEN", show_default=False,
                 callback=_warn_if_typed,
                 help="The admin token `admiralty serve` printed. Set ADMIRALTY_TOKEN or use "
                 "--token-file instead: a token typed here can be read by every user of this "
                 "machine (ps), so it draws a warning."),
]
TokenFileOption = Annotated[
    Path | None,
    typer.Option("--token-file", dir_okay=False, show_default=False,
                 help="A file holding the admin token; taken before ADMIRALTY_TOKEN and "
                 "--token."),
]


def admin_token(token: str | None, token_file: Path | None) -> str | None:
    """The admin token of a command taking TokenOption and TokenFileOption: from
    --token-file, else ADMIRALTY_TOKEN or --token; None if none was given. A file that
    cannot be read and a token that cannot be one (empty, or not printable ASCII without
    spaces, as `admiralty serve` prints it) are one usage line."""
    source = "--token or ADMIRALTY_TOKEN"
    if token_file is not None:
        try:
            token = token_file.read_text(encoding="ascii", errors="replace").strip()
        except OSError as error:
            raise usage(f"--token-file {token_file}: cannot read it: "
                        f"{error.strerror or error}") from None
        source = f"--token-file {token_file}"
    if token is None:
        return None
    if not token or not token.isascii() or not token.isprintable() or " " in token:
        raise usage(f"{source}: not an admin token (`admiralty serve` prints one of "
                    "printable ASCII characters, no spaces)")
    return token


def needed_token(token: str | None, token_file: Path | None) -> str:
    """`admin_token`, for a call that cannot be made without it."""
    resolved = admin_token(token, token_file)
    if resolved is None:
        raise usage("this call needs the admin token `admiralty serve` printed: set "
                    "ADMIRALTY_TOKEN or give --token-file FILE")
    return resolved


@contextlib.contextmanager
def _served(server: str, tls_ca: Path | None) -> Iterator[bytes | None]:
    """The TLS roots to reach `server` with; gRPC and file errors as one line."""
    try:
        roots = tls_ca.read_bytes() if tls_ca is not None else None
    except OSError as error:
        raise usage(f"cannot read {tls_ca}: {error.strerror or error}") from None
    try:
        yield roots
    except grpc.RpcError as error:
        raise fail(f"{server}: {error.code().name.lower()}: {error.details()}") from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None


@app.command()
def watch(
    match_id: Annotated[str, typer.Argument(help="The match, as listed by the referee.")],
    server: ServerOption = "127.0.0.1:50051",
    token: TokenOption = None,
    token_file: TokenFileOption = None,
    seat: SeatViewOption = None,
    legend: LegendOption = False,
    export_to: ExportOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Follow a match on a referee server live, as a spectator (or, with --seat and the
    admin token, as that seat). Off a terminal, print the whole log and the result.

    With the admin token (ADMIRALTY_TOKEN, --token-file) every seat's cards are shown."""
    display = Display(seat, legend, export_to)
    display.check()
    admin = admin_token(token, token_file)
    if seat is not None and admin is None:
        raise usage("--seat needs the admin token: set ADMIRALTY_TOKEN or give "
                    "--token-file FILE")
    with _served(server, tls_ca) as roots:
        try:
            screen = watch_remote(server, match_id, admin or "", out, roots, seat, legend)
        except ValueError as error:
            raise fail(str(error)) from None
    display.finish(screen)


match_app = cli_help.Typer(
    help="The operator's calls on a served referee (`admiralty serve`): create, list, show.",
    no_args_is_help=True,
)
app.add_typer(match_app, name="match")


@match_app.command("create")
def match_create(
    game: GameArgument,
    bot: Annotated[
        list[str],
        typer.Option("--bot", "-b", help="A running bot's address, host:port or "
                     "grpc://host:port, as the referee reaches it. Repeat once per seat."),
    ],
    server: ServerOption = "127.0.0.1:50051",
    token: TokenOption = None,
    token_file: TokenFileOption = None,
    seed: SeedOption = None,
    option: GameOptionsOption = [],  # noqa: B006
    policy: PolicyOption = FailurePolicy.DEFAULT,
    deadline: DeadlineOption = 2.0,
    time_bank: TimeBankOption = 60.0,
    tls_ca: TlsCaOption = None,
    as_json: JsonOption = False,
    follow: Annotated[
        bool, typer.Option("--watch", help="Then follow it live, as `admiralty watch ID` "
                           "does (with the admin token: every seat's cards).")
    ] = False,
) -> None:
    """Start a match on the referee; prints its id (follow it with `admiralty watch ID`)."""
    if seed is not None and not 0 < seed < 2**64:
        raise usage("a served match takes a --seed from 1 to 2**64 - 1 (omit it for a "
                    "128-bit one)")
    admin = needed_token(token, token_file)
    with _served(server, tls_ca) as roots, remote_referee(server, admin, roots) as referee:
        created = referee.create(game, bot, seed or 0, parse_options(option),
                                 int(deadline * 1000), int(time_bank * 1000), policy)
    if as_json:
        print(json.dumps({"match_id": created.match_id, "seed": created.master_seed}))
    else:
        out.print(f"match {created.match_id} (seed {created.master_seed})", highlight=False)
    if follow:
        watch(created.match_id, server, admin, tls_ca=tls_ca)


@match_app.command("list")
def match_list(
    server: ServerOption = "127.0.0.1:50051",
    token: TokenOption = None,
    token_file: TokenFileOption = None,
    tls_ca: TlsCaOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the matches the referee remembers, oldest first."""
    admin = needed_token(token, token_file)
    with _served(server, tls_ca) as roots, remote_referee(server, admin, roots) as referee:
        summaries = [_summary_json(summary) for summary in referee.matches()]
    if as_json:
        print(json.dumps(summaries))
    else:
        out.print(matches_list_table(summaries))


def matches_list_table(summaries: Sequence[Mapping[str, Any]]) -> Table:
    """`match list`: each id whole, since `watch` and `match show` take it (it starts with
    the game's name, so the game has no column of its own); the bots' names wrap instead."""
    table = Table(box=None, pad_edge=False, header_style="bold underline")
    table.add_column("match", no_wrap=True,
                     min_width=max((len(s["match_id"]) for s in summaries), default=0))
    table.add_column("status", overflow="fold")
    table.add_column("steps", justify="right")
    table.add_column("bots", min_width=8, overflow="fold")
    for summary in summaries:
        table.add_row(summary["match_id"], summary["status"], str(summary["steps"]),
                      Text(printable(", ".join(display_names(summary["bot_names"])))))
    return table


@match_app.command("show")
def match_show(
    match_id: Annotated[str, typer.Argument(help="The match, as `match list` shows it.")],
    server: ServerOption = "127.0.0.1:50051",
    token: TokenOption = None,
    token_file: TokenFileOption = None,
    tls_ca: TlsCaOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one match: status, bots, seed, steps, record and, once finished, the result."""
    admin = needed_token(token, token_file)
    with _served(server, tls_ca) as roots, remote_referee(server, admin, roots) as referee:
        summary = _summary_json(referee.get(match_id))
    if as_json:
        print(json.dumps(summary))
        return
    for key in ("match_id", "game", "status", "master_seed", "steps", "record_path", "error"):
        if summary.get(key):
            out.print(f"{key.replace('_', ' ')}: {printable(str(summary[key]))}",
                      highlight=False, markup=False)
    if summary.get("result"):
        print_result(summary["result"])


def _summary_json(summary) -> dict:
    data = json_format.MessageToDict(summary, preserving_proto_field_name=True,
                                     always_print_fields_with_no_presence=True)
    data["status"] = data["status"].removeprefix("MATCH_STATUS_").lower()
    for incident in data.get("result", {}).get("incidents", []):
        incident["kind"] = incident["kind"].removeprefix("INCIDENT_KIND_").lower()
    return data


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 50051,
    records: Annotated[Path, typer.Option(help="Directory for match records.")] = Path("records"),
    tls_cert: Annotated[
        Path | None, typer.Option(help="PEM certificate chain: serve over TLS (with --tls-key).")
    ] = None,
    tls_key: Annotated[Path | None, typer.Option(help="PEM private key of --tls-cert.")] = None,
    keep_finished: Annotated[
        int, typer.Option(help="Finished matches remembered for GetMatch, ListMatches and "
                          "Watch; older ones are forgotten (their records stay).", min=1)
    ] = 1000,
    token_file: Annotated[
        Path | None,
        typer.Option("--token-file", dir_okay=False, show_default=False,
                     help="Also write the admin token to this file, readable by you only, "
                     "before listening: the clients' --token-file, or "
                     "ADMIRALTY_TOKEN=$(cat FILE)."),
    ] = None,
) -> None:
    """Run the referee server (RefereeService) until interrupted (Ctrl-C or SIGTERM).

    Every call but Watch needs the admin token printed at start, sent as the metadata
    `authorization: Bearer TOKEN`; Watch shows the public view, or everything with the token.
    The `match` commands and `watch` read it from ADMIRALTY_TOKEN or --token-file (keep it
    off command lines: every local user can read them). The token travels in clear text
    unless the server has --tls-cert and --tls-key.
    """
    from admiralty.referee.service import serve_referee

    _check_host(host)
    tls = _tls_pair(tls_cert, tls_key)
    warning = exposure_warning(host, tls is not None)
    if warning:
        err.print(warning, style="yellow", highlight=False)
    token = secrets.token_urlsafe(24)
    if token_file is not None:
        try:
            with open_private(token_file) as file:
                file.write(f"{token}\n".encode())
        except OSError as error:
            raise usage(f"cannot write {token_file}: {error.strerror or error}") from None

    async def main() -> None:
        server = await serve_referee(host, port, token, records, tls, keep_finished)
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


def _check_host(host: str) -> None:
    """One usage line for a --host that is no address (999.1.1.1) or names no host, which
    gRPC would only report as a port it cannot listen on. An IP address is never looked up."""
    name = host.strip("[]")
    try:
        if ":" in name or all(c.isdigit() or c == "." for c in name):
            ipaddress.ip_address(name)
        else:
            socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)
    except ValueError:
        raise usage(f"--host {host}: not a valid IP address") from None
    except (socket.gaierror, UnicodeError):
        raise usage(f"--host {host}: no such host name") from None


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


def exposure_warning(host: str, tls: bool) -> str | None:
    """A warning when the referee listens beyond this machine in clear text."""
    if tls or _is_loopback(host):
        return None
    return (f"warning: serving on {host} without TLS: the admin token and every match "
            "cross the network in clear text (see --tls-cert)")


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


tournament_app = cli_help.Typer(
    help="Round-robin tournaments, ranked by TrueSkill and stored in SQLite. A one-seat "
    "tournament (--players 1: each bot alone against the game's automated opponent) plays "
    "every bot on the same deals and ranks by mean margin instead.",
    no_args_is_help=True,
)
app.add_typer(tournament_app, name="tournament")
DbOption = Annotated[Path, typer.Option(help="The SQLite file holding tournaments.")]
ParallelOption = Annotated[
    int | None,
    typer.Option(help="Matches played at once (default: the cores; with --backend ray, the "
                 "cluster's CPUs).", min=1, show_default=False),
]
BackendOption = Annotated[
    BackendName,
    typer.Option(help="Where matches are refereed: local (worker processes of this machine) "
                 "or ray (Ray tasks across a cluster, needs pip install 'admiralty[ray]'; "
                 "see docs/cluster.md). Results are the same either way."),
]
AddressOption = Annotated[
    str | None,
    typer.Option(help="With --backend ray, the cluster to join: ray://HOST:PORT (Ray "
                 "Client), HOST:PORT of its head, or auto (the cluster this machine is "
                 "part of). Default: start Ray on this machine for the run.",
                 show_default=False),
]
TournamentStartupOption = Annotated[
    float,
    typer.Option("--startup-timeout",
                 help="Seconds a bot has to answer Hello: once launched, and again when "
                 "each referee (worker process or Ray task's process) reaches it (0.1 to "
                 "86400).", callback=within(0.1), metavar="SECONDS"),
]


@tournament_app.command("run")
def tournament_run(
    game: GameArgument,
    bot: BotsOption,
    players: Annotated[
        int | None,
        typer.Option(help="Seats per match; default: the game's usual count, clamped to the "
                     "pool. 1: each bot plays alone against the game's automated opponent "
                     "(Blackbeard solitaire), every bot on the same deal each round.", min=1),
    ] = None,
    rounds: Annotated[
        int, typer.Option(help="Rounds; each plays every group of --players bots (or, with "
                          "--matches-per-bot, a sample of groups) in each of its seat "
                          "rotations, in a cyclic order chosen so every bot sits before and "
                          "after every other as evenly as the groups allow (with one seat: "
                          "one deal, played by every bot).", min=1)
    ] = 1,
    matches_per_bot: Annotated[
        int | None,
        typer.Option(
            help="For a large pool: instead of every group, each round samples groups so "
            "that every bot plays exactly this many matches and every two bots meet as "
            "evenly as possible. A group plays its --players seat rotations, so this must "
            "be a multiple of --players and, times the number of bots, of --players "
            "squared; the error says which values work.",
            min=1, show_default=False,
        ),
    ] = None,
    schedule: Annotated[
        Schedule,
        typer.Option(
            help="full: play the whole balanced plan. adaptive: play it as a first block "
            "(--rounds rounds, or --matches-per-bot sampled), then block after block the "
            "groups that inform the ranking most (bots next to each other in the standings "
            "whose order is least certain), each block chosen from the results before it and "
            "stored before it is played, until every neighbouring pair of the --top bots is "
            "ordered with P >= --confidence by the ratings, or --max-matches is reached; "
            "its leaderboard is then sorted by mu, the order the rule certifies. Not for "
            "one-seat games.",
        ),
    ] = Schedule.FULL,
    confidence: Annotated[
        float,
        typer.Option(help="Adaptive: stop when, for each pair of bots next to each other "
                     "in the standings (by mu) among the --top, P(the upper is stronger) "
                     "= Phi(gap in mu / sqrt(sigma1^2 + sigma2^2)) is at least this."),
    ] = 0.9,
    top: Annotated[
        int | None,
        typer.Option(help="Adaptive: how many of the top bots must be ordered (with fewer "
                     "than all, also the last of them against the next); default all.",
                     min=1, show_default=False),
    ] = None,
    max_matches: Annotated[
        int | None,
        typer.Option(help="Adaptive: the most matches to plan in all, first block "
                     "included; default 10 times the first block.", min=1,
                     show_default=False),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Master seed, to repeat a tournament exactly. Omitted, a 128-bit seed comes "
            "from a secure source (`tournament show --json` prints it). A seed a person types "
            "can be guessed by anyone who knows it, and with it every deal."
        ),
    ] = None,
    deals: Annotated[
        Deals | None,
        typer.Option(
            help="fresh (the default): every match is dealt anew. duplicate: the seat "
            "rotations of a group (in a round) replay one deal, which cancels the luck of "
            "the deal but lets a bot that remembers learn its opponents' cards; only for "
            "evaluating trusted bots. A one-seat tournament is always duplicate: every bot "
            "plays the round's deal.",
            show_default=False,
        ),
    ] = None,
    parallel: ParallelOption = None,
    backend: BackendOption = BackendName.LOCAL,
    address: AddressOption = None,
    startup_timeout: TournamentStartupOption = STARTUP_TIMEOUT,
    bot_user: BotUserOption = None,
    sandbox: SandboxOption = False,
    db: DbOption = Path("admiralty.db"),
    name: Annotated[
        str | None,
        typer.Option(help="The tournament's name; default GAME-<6 random hex digits>."),
    ] = None,
    policy: PolicyOption = FailurePolicy.DEFAULT,
    deadline: DeadlineOption = 2.0,
    time_bank: TimeBankOption = 60.0,
    rating: Annotated[
        str, typer.Option(help="trueskill, or openskill if installed.")
    ] = "trueskill",
    tau: Annotated[
        float, typer.Option(help="Skill drift added to every sigma before each match: 0, "
                            "since a bot is the same program in every match; the rating "
                            "libraries' default for people is 25/300 = 0.0833.")
    ] = 0.0,
    option: GameOptionsOption = [],  # noqa: B006
    records: Annotated[Path, typer.Option(help="Directory for match records.")] = Path("records"),
    as_json: JsonOption = False,
) -> None:
    """Plan a round-robin tournament, launch the bots, store the plan, play it and print
    the leaderboard. The plan holds every K-subset of bots, or with --matches-per-bot a
    balanced sample of them, each in every seat rotation of a balanced cyclic order (see
    docs/tournaments.md). The order of --bot does not matter: the bots are entered in the order of
    their specs (sorted), so the same bots and --seed give the same plan and leaderboard
    however they are listed; a bot entered twice needs other arguments (e.g. --seed).
    Nothing is stored unless every setting is valid, the records can be written, and every
    bot starts and plays the game. With --players 1 (a one-seat game, e.g. Blackbeard
    solitaire) every bot
    plays alone against the game's automated opponent, all of them on the same deal in each
    round; the score is the margin over the opponent (0 or more wins), and the leaderboard
    ranks by mean margin with a 95% t-interval over the deals, the paired gap to the bot
    ranked above on the deals both played, and the win rate (TrueSkill does not apply)."""
    name = name or f"{game}-{secrets.token_hex(3)}"
    try:
        if deals is Deals.FRESH and _seats(game, bot, players) == 1:
            raise UsageError("a one-seat tournament plays every bot on the same deals: "
                             "leave out --deals fresh")
        settings = Settings(
            policy=policy.value,
            deadline=deadline,
            time_bank=time_bank,
            rating=rating,
            tau=tau,
            options=parse_options(option),
            records=str(records),
            deals=(deals or Deals.FRESH).value,
            matches_per_bot=matches_per_bot,
            schedule=schedule.value,
            confidence=confidence,
            top=top,
            max_matches=max_matches,
        )
        if schedule is Schedule.FULL and (top, max_matches, confidence) != (None, None, 0.9):
            raise UsageError("--confidence, --top and --max-matches are for --schedule "
                             "adaptive")
        seed = secrets.randbits(128) if seed is None else seed
        tournament, plan = new_tournament(name, game, bot, players, rounds, seed, settings)
        referees = make_backend(backend, address, startup_timeout,
                                Isolation(bot_user, sandbox))
    except (UsageError, ValueError) as error:
        raise usage(str(error)) from None
    runner = Runner.this_process(datetime.now(UTC))
    with _tournament_errors():
        store = Store(db, create=True)
        _play_tournament(
            store, name, len(plan), as_json,
            lambda on_result: start_tournament(store, tournament, plan, runner, parallel,
                                               on_result, referees),
        )


def _seats(game: str, bots: list[str], players: int | None) -> int:
    """The seats a tournament will have: --players, else the game's usual count."""
    return default_players(game, len(bots)) if players is None else players


@tournament_app.command("resume")
def tournament_resume(
    name: Annotated[str, typer.Argument(help="The tournament to finish.")],
    db: DbOption = Path("admiralty.db"),
    parallel: ParallelOption = None,
    backend: BackendOption = BackendName.LOCAL,
    address: AddressOption = None,
    startup_timeout: TournamentStartupOption = STARTUP_TIMEOUT,
    bot_user: BotUserOption = None,
    sandbox: SandboxOption = False,
    as_json: JsonOption = False,
) -> None:
    """Finish a stopped tournament: every planned match without a result is played (an
    adaptive one then goes on choosing blocks until its stop rule, exactly as if it had not
    stopped). One process at a time runs a tournament; a runner that died leaves a lease
    that is taken over. The bots are launched as this command says: give --sandbox and
    --bot-user again if the run had them."""
    try:
        referees = make_backend(backend, address, startup_timeout,
                                Isolation(bot_user, sandbox))
    except ValueError as error:
        raise usage(str(error)) from None
    runner = Runner.this_process(datetime.now(UTC))
    with _tournament_errors():
        store = Store(db)
        store.tournament(name)  # one line if there is no such tournament
        planned = len(store.plan(name))
        _play_tournament(
            store, name, planned, as_json,
            lambda on_result: resume_tournament(store, name, runner, parallel, on_result,
                                                referees),
        )


def _view(flag: str, what: str) -> Any:
    """A `tournament show` flag adding a view."""
    return typer.Option(flag, help=f"Also {what}")


@tournament_app.command("show")
def tournament_show(
    name: Annotated[str, typer.Argument(help="The tournament to show.")],
    db: DbOption = Path("admiralty.db"),
    matches: Annotated[bool, _view(
        "--matches", "every planned match in plan order: each seat's place, bot and score "
        "(* forfeited), the seats' incidents by kind, or 'not played'.")] = False,
    head_to_head: Annotated[bool, _view(
        "--head-to-head", "for every two bots, how often the row bot was placed above the "
        "column bot out of the matches both played.")] = False,
    history: Annotated[bool, _view(
        "--history", "each bot's rating by games rated, plotted in characters: mu and the "
        "band mu ± 3 sigma.")] = False,
    seats: Annotated[bool, _view(
        "--seats", "the win share of each seat position (seat 1 plays first), against the "
        "fair share 1/players.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Print a tournament's leaderboard. It is sorted by mu - 3 sigma (an adaptive one's by
    mu, the order its stop rule certifies); a one-seat tournament's by mean margin over the
    automated opponent, with its 95% t-interval over the shared deals, the paired gap to
    the bot above and the win rate (TrueSkill does not apply). Every
    leaderboard counts each bot's incidents, its crashes and whether it was disqualified;
    latencies are over answered decisions. --matches, --head-to-head, --history and --seats
    add views (as keys of the --json object); the last three need seats placed against each
    other, so a one-seat tournament has none of them."""
    views = ShowViews(matches, head_to_head, history, seats)
    with _tournament_errors():
        _print_leaderboard(Store(db), name, as_json, views)


@tournament_app.command("list")
def tournament_list(
    db: DbOption = Path("admiralty.db"),
    as_json: JsonOption = False,
) -> None:
    """List the tournaments in --db, oldest first. Each shows its name, game, seats per
    match, bots, matches played of planned, state (running: a live runner holds it;
    stopped: resume it, also after a runner was killed; finished) and when it was created
    (UTC; '-' if stored by an older admiralty)."""
    with _tournament_errors():
        rows = summaries(Store(db))
    if as_json:
        print(json.dumps({"db": str(db), "tournaments": [row.to_json() for row in rows]}))
        return
    if not rows:
        out.print(f"no tournaments in {db}", highlight=False)
        return
    table = Table(header_style="bold underline", box=None, pad_edge=False,
                  padding=(0, 1, 0, 0))
    for header in ("name", "game", "seats", "bots", "played", "state", "created"):
        table.add_column(header, justify="right" if header in ("seats", "bots", "played")
                         else "left", no_wrap=header != "name")
    for row in rows:
        created = row.created.replace("T", " ")[:16] if row.created else "-"
        table.add_row(row.name, row.game, str(row.players), str(row.bots),
                      f"{row.played}/{row.planned}", row.state, created)
    out.print(table)


@tournament_app.command("delete")
def tournament_delete(
    name: Annotated[str, typer.Argument(help="The tournament to delete.")],
    db: DbOption = Path("admiralty.db"),
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
) -> None:
    """Delete a tournament: its plan, bots, results and lease (refused while it runs). Its
    match records are left alone; the command prints where they are."""
    with _tournament_errors():
        store = Store(db)
        tournament = store.tournament(name)
        if not yes:
            played = f"{len(store.results(name))} of {len(store.plan(name))} matches played"
            typer.confirm(f"Delete tournament {name} ({played}) from {db}?", abort=True)
        store.delete(name)
    records = tournament.settings.get("records")
    out.print(f"deleted tournament {name}"
              + (f"; its records are left in {Path(records) / name}" if records else ""),
              highlight=False, soft_wrap=True)


@contextlib.contextmanager
def _tournament_errors():
    """A failure of the database, the records, a bot or a referee worker as one line, exit
    code 1."""
    try:
        yield
    except (StoreError, RecordsError, BotLaunchError, WorkerError) as error:
        raise fail(str(error)) from None


@dataclass(frozen=True)
class ShowViews:
    """The views `tournament show` adds to the leaderboard."""

    matches: bool = False
    head_to_head: bool = False
    history: bool = False
    seats: bool = False


def _views(store: Store, name: str, views: ShowViews, order: Sequence[str]
           ) -> tuple[dict[str, Any], list[Any]]:
    """The asked-for views as --json keys and as renderables, in that order."""
    if views == ShowViews():
        return {}, []
    tournament = store.tournament(name)
    names = bot_names(tournament)
    plan, results = store.plan(name), store.results(name)
    data: dict[str, Any] = {}
    shown: list[Any] = []
    rated = tournament.players > 1
    none = "(a one-seat tournament has no {}: no seats placed against each other)"
    if views.matches:
        data["matches"] = match_rows(names, plan, results)
        shown.append(matches_table(data["matches"], title="matches"))
    if views.head_to_head:
        data["head_to_head"] = head_to_head(names, plan, results) if rated else None
        shown.append(head_to_head_table(data["head_to_head"], order, title="head to head")
                     if rated else none.format("head-to-head"))
    if views.history:
        live = live_standings(names, plan, results,
                              rater_of(tournament.settings)) if rated else None
        data["history"] = rating_history(live) if live else None
        shown.append(Group(Text("rating by games rated", style="bold"),
                           history_plot(data["history"], order)) if live
                     else none.format("rating history"))
    if views.seats:
        data["seats"] = seat_win_rates(tournament.players, plan, results) if rated else None
        shown.append(seats_table(data["seats"], title="win share by seat")
                     if rated else none.format("seat win rates"))
    return data, shown


def _print_leaderboard(store: Store, name: str, as_json: bool,
                       views: ShowViews = ShowViews()) -> None:
    tournament = store.tournament(name)
    rows = leaderboard(store, name)
    extra, shown = _views(store, name, views, [row.bot for row in rows])
    adaptive = {"schedule": Schedule.ADAPTIVE.value, "stopped": stop_reason(store, name)} \
        if tournament.settings.get("schedule") == Schedule.ADAPTIVE.value else {}
    if as_json:
        print(
            json.dumps(
                {
                    "tournament": name,
                    "game": tournament.game,
                    "seed": tournament.seed,
                    "deals": tournament.settings["deals"],
                    "ranking": RANKING if tournament.players == 1 else
                    f"{tournament.settings['rating']}: "
                    + ("mu, as the adaptive stop rule orders" if adaptive else "mu - 3 sigma"),
                    "planned": len(store.plan(name)),
                    "finished": len(store.results(name)),
                    "standings": [row.to_json(rank) for rank, row in enumerate(rows, start=1)],
                    **adaptive,
                    **extra,
                }
            )
        )
    else:
        out.print(leaderboard_table(rows, title=f"{name} · {tournament.game}", width=out.width,
                                    by_mu=bool(adaptive)))
        if adaptive:
            out.print(f"adaptive schedule, stopped by {adaptive['stopped']}"
                      if adaptive["stopped"] else "adaptive schedule, still to play",
                      highlight=False)
        for view in shown:
            out.print()
            out.print(view, highlight=False)


def _play_tournament(
    store: Store,
    name: str,
    planned: int,
    as_json: bool,
    play: Callable[[Callable], Coroutine],
) -> None:
    """Run `play(on_result)` with a live leaderboard, then print the final one."""
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=as_json,
    )
    task = progress.add_task(name, total=planned, completed=len(store.results(name)))
    board = Live(progress, console=err, refresh_per_second=4, transient=True)
    shown = [0.0]
    live: list[LiveLeaderboard] = []  # built at the first result: the tournament is stored

    def on_result(match) -> None:
        progress.advance(task)
        if progress.tasks[0].completed >= (progress.tasks[0].total or 0):
            progress.update(task, total=len(store.plan(name)))  # an adaptive block's matches
        if as_json:
            return
        if live:
            live[0].add(match)  # one result read and one rating update, not a recompute
        else:
            live.append(LiveLeaderboard(store, name))
        if time.monotonic() - shown[0] > 1.0:
            shown[0] = time.monotonic()
            board.update(Group(leaderboard_table(live[0].rows(), width=err.width,
                                                 by_mu=live[0].by_mu), progress))

    try:
        with contextlib.nullcontext() if as_json else board:
            asyncio.run(play(on_result))
    except KeyboardInterrupt:
        err.print(_stopped(store, name, planned), highlight=False)
        raise typer.Exit(code=130) from None
    _print_leaderboard(store, name, as_json)


def _stopped(store: Store, name: str, planned: int) -> str:
    try:
        store.tournament(name)
    except StoreError:
        return "stopped before the tournament was stored: nothing was kept"
    done = len(store.results(name))
    return (
        f"stopped: {done} of {planned} matches finished and kept; "
        f"continue with `admiralty tournament resume {name}`"
    )


def main() -> None:
    try:
        app()
    except UsageError as error:
        raise SystemExit(usage(str(error)).exit_code) from None


if __name__ == "__main__":
    main()
