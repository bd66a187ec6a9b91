"""`admiralty play`: one match between bots, watched live or not, or played in process."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from pathlib import Path
from typing import Annotated

import typer

from admiralty.cli.display import Display
from admiralty.cli.options import (
    BotsOption,
    BotUserOption,
    DeadlineOption,
    ExportOption,
    GameArgument,
    GameOptionsOption,
    JsonOption,
    LegendOption,
    PolicyOption,
    SandboxOption,
    SeatViewOption,
    SeedOption,
    StartupOption,
    TimeBankOption,
    check_game,
    parse_options,
    within,
)
from admiralty.cli.output import UsageError, fail, out, usage
from admiralty.console.feeds import LocalFeed, Pacer, live_display
from admiralty.console.results import print_result
from admiralty.console.screen import MatchScreen
from admiralty.games import load_game
from admiralty.referee import (
    BotLaunchError,
    FailurePolicy,
    MatchReport,
    MatchSpec,
    check_plays,
    launch_all,
    run_match,
    stop_all,
)
from admiralty.referee.launcher import STARTUP_TIMEOUT, Isolation
from admiralty.referee.local import load_bot, run_local
from admiralty.referee.match import checked_options
from admiralty.referee.record import private_dir
from admiralty.referee.timeline import request_steps


def play(
    game: GameArgument,
    bot: BotsOption,
    players: Annotated[
        int | None,
        typer.Option(
            help="Seats; it must match the number of --bot (so it may be left out). "
            "--players 1 plays a one-seat game (Blackbeard solitaire) against the "
            "game's automated opponent; the score is the margin over it.",
            min=1,
        ),
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
        bool,
        typer.Option(
            "--watch",
            help="Show the match live, as a spectator sees it (or "
            "as --seat sees it). Off a terminal, print the whole log and the "
            "result.",
        ),
    ] = False,
    seat: SeatViewOption = None,
    delay: Annotated[
        float,
        typer.Option(
            callback=within(0),
            metavar="SECONDS",
            help="With --watch, "
            "seconds each step that adds to the log stays on screen (0: as "
            "fast as the bots play; at most 86400). The bots' clocks do not "
            "run meanwhile.",
        ),
    ] = 0.5,
    legend: LegendOption = False,
    export_to: ExportOption = None,
    as_json: JsonOption = False,
    local: Annotated[
        bool,
        typer.Option(
            "--local",
            help="Play in this process, without gRPC: each --bot "
            "is a Python file defining one Bot subclass (built with no "
            "arguments); the clock stands still (see admiralty.referee.local).",
        ),
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
        raise usage(
            "--watch, --seat and --export show a match of bot processes; "
            "leave them out with --local"
        )
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
            report = asyncio.run(
                _play(
                    spec,
                    bot,
                    startup_timeout,
                    Isolation(bot_user, sandbox),
                    display if watch and not as_json else None,
                    delay,
                )
            )
    except BotLaunchError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"cannot write the record {spec.record_path}: {error.strerror}") from None
    except KeyboardInterrupt:
        raise fail(
            f"interrupted; the record {spec.record_path} says the match was aborted", code=130
        ) from None
    if as_json:
        print(json.dumps(report.to_json()))
    elif watch:
        out.print(f"record: {spec.record_path}", highlight=False, soft_wrap=True)
    else:
        print_report(report)


def check_writable(path: Path) -> None:
    """Fail before any bot starts if a record cannot be written at `path`."""
    try:
        private_dir(path.parent)
    except OSError as error:
        raise fail(f"cannot create {path.parent}: {error.strerror}") from None
    if path.is_dir() or not os.access(path.parent, os.W_OK):
        raise fail(f"cannot write the record {path}")


async def _play(
    spec: MatchSpec,
    specs: list[str],
    startup_timeout: float,
    isolation: Isolation,
    display: Display | None,
    delay: float,
) -> MatchReport:
    bots = await launch_all(specs, startup_timeout, isolation=isolation)
    try:
        check_plays(bots, spec.game)
        clients = [bot.client for bot in bots]
        if display is None:
            return await run_match(spec, clients)
        screen = MatchScreen(
            spec.game,
            load_game(spec.game).static_info(),
            [client.name for client in clients],
            display.seat,
            display.legend,
            spec.seed,
            spec.match_id,
        )
        with live_display(screen, out) as shown:
            feed = LocalFeed(
                screen,
                display.seat,
                Pacer(delay if shown else 0),
                shown.refresh if shown else lambda: None,
            )
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
    """The result, its incidents with the steps the record gives them, and the record."""
    data = report.to_json()
    record = report.spec.record_path
    steps = request_steps(record) if record is not None and data["incidents"] else {}
    print_result(out, data, title=f"{data['game']} · seed {data['seed']}", steps=steps)
    if data["record"]:
        out.print(f"record: {data['record']}")
