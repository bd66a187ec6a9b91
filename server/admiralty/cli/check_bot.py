"""`admiralty check-bot`: whether a bot keeps the protocol, before it plays for real."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Annotated, Any

import typer

from admiralty.arena.checking import DIAL_IN_TIMEOUT, DialInError, DialInReach, check_dialed_in
from admiralty.cli.options import (
    MAX_SEED,
    BotUserOption,
    DeadlineOption,
    JsonOption,
    SandboxOption,
    parse_options,
    within,
)
from admiralty.cli.output import UsageError, err, fail, out, usage
from admiralty.console.conformance import print_conformance
from admiralty.games import GAMES
from admiralty.referee import BotLaunchError
from admiralty.referee.conformance import CheckPlan, Conformance, check_bot, seats_needed
from admiralty.referee.launcher import STARTUP_TIMEOUT, Isolation

FEWEST_CONNECTIONS = 2
"""`seats_needed(GAMES, 1)`, written out (a test holds it to the games): the help is built
at every start of the command line, and working it out loads every engine."""


def _seconds(param: typer.CallbackParam, value: float | None) -> float | None:
    return None if value is None else within(0.1)(param, value)


def check_bot_command(
    bot: Annotated[
        str | None,
        typer.Argument(
            help="The bot: a Python file, a command, or grpc://host:port. Omitted with --dial-in.",
            show_default=False,
        ),
    ] = None,
    dial_in: Annotated[
        bool,
        typer.Option(
            "--dial-in",
            help="Check a bot that dials in to an arena instead: serve one on 127.0.0.1, "
            "print its address and a key made for this check, and wait for the bot to dial "
            "in with them (--dial ADDRESS --key-file FILE --connections N).",
        ),
    ] = False,
    port: Annotated[
        int,
        typer.Option(
            min=0, max=65535, help="With --dial-in: the port to serve on (0: a free one)."
        ),
    ] = 0,
    connections: Annotated[
        int | None,
        typer.Option(
            min=1,
            show_default=False,
            help="With --dial-in: the connections the bot opens. Default: the most seats "
            f"the checks hold at once (--matches, at least {FEWEST_CONNECTIONS}); a check "
            "that needs more is NOT EXERCISED.",
        ),
    ] = None,
    key_file: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            show_default=False,
            help="With --dial-in: also write the key to FILE (readable by you only).",
        ),
    ] = None,
    deadline: DeadlineOption = 2.0,
    matches: Annotated[
        int, typer.Option(help="Matches per game played one at a time, and again at once.", min=1)
    ] = 3,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=MAX_SEED,
            help="Seed of the matches, to repeat a check. "
            "Omitted, a 128-bit one from a secure source (it is printed).",
        ),
    ] = None,
    startup_timeout: Annotated[
        float | None,
        typer.Option(
            callback=_seconds,
            metavar="SECONDS",
            show_default=False,
            help=f"Seconds a spawned bot has to answer Hello ({STARTUP_TIMEOUT:g}), or with "
            f"--dial-in the bot has to dial in ({DIAL_IN_TIMEOUT:g}); 0.1 to 86400.",
        ),
    ] = None,
    option: Annotated[
        list[str],
        typer.Option(
            "--option",
            "-o",
            metavar="NAME=VALUE",
            help="A game option for every match of the games that have it, e.g. "
            "round_cap=10 for a quicker check on shorter games (`admiralty games GAME` "
            "lists them); repeat it for each.",
        ),
    ] = [],  # noqa: B006 (typer reads the default; never mutated)
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
    With --dial-in the same checks play the bot over the streams it dialed in on.
    Exit 1 if any check FAILs.
    """
    _refuse_mixed(bot, dial_in, port, connections, key_file, bot_user, sandbox)
    seed = secrets.randbits(128) if seed is None else seed
    try:
        plan = CheckPlan(seed, deadline, matches, parse_options(option))
    except (UsageError, ValueError) as error:
        raise usage(str(error)) from None
    what = bot or "the bot dialing in"
    status = err.status(f"checking {what}")  # shown on a terminal only, never with --json

    def progress(stage: str) -> None:
        status.update(f"checking {what}: {stage}")

    if bot is None:
        wait = DIAL_IN_TIMEOUT if startup_timeout is None else startup_timeout
        needed = connections or seats_needed(GAMES, matches)
        announce = _announcer(needed, key_file, status.update)
        checking = check_dialed_in(port, needed, plan, wait, announce, progress)
    else:
        wait = STARTUP_TIMEOUT if startup_timeout is None else startup_timeout
        isolation = Isolation(bot_user, sandbox)
        checking = check_bot(bot, plan, wait, isolation, progress)
    with contextlib.nullcontext() if as_json else status:
        report = _run(checking)
    if as_json:
        print(json.dumps(report.to_json()))
    else:
        print_conformance(out, report)
    if report.failed:
        raise typer.Exit(code=1)


def _refuse_mixed(
    bot: str | None,
    dial_in: bool,
    port: int,
    connections: int | None,
    key_file: Path | None,
    bot_user: str | None,
    sandbox: bool,
) -> None:
    """One usage line for a BOT and --dial-in together, neither, or an option of the
    other way of checking."""
    if dial_in == (bot is not None):
        raise usage("give a BOT to check, or --dial-in for a bot that dials in (not both)")
    dial_in_only = {
        "--port": port != 0,
        "--connections": connections is not None,
        "--key-file": key_file is not None,
    }
    started_only = {"--bot-user": bot_user is not None, "--sandbox": sandbox}
    wrong = [
        option for option, given in (started_only if dial_in else dial_in_only).items() if given
    ]
    if wrong:
        raise usage(f"{wrong[0]} does not apply {'with' if dial_in else 'without'} --dial-in")


def _announcer(
    connections: int, key_file: Path | None, waiting: Callable[[str], None]
) -> Callable[[DialInReach], None]:
    """Where the bot dials in and with which key: on stderr (stdout keeps the verdict),
    and in `key_file` if given."""

    def announce(reach: DialInReach) -> None:
        if key_file is not None:
            _write_key(key_file, reach.key)
        flags = f"--dial {reach.address} --key-file {key_file or 'FILE'}"
        err.print(f"dial in to {reach.address} with key {reach.key}", highlight=False)
        err.print(
            f"e.g. python my_bot.py {flags} --connections {connections}",
            highlight=False,
            soft_wrap=True,
        )
        waiting(f"waiting for the bot to dial in to {reach.address}")

    return announce


def _write_key(path: Path, key: str) -> None:
    """The key in `path`, readable by its owner only; one error line if it cannot be."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(descriptor, 0o600)  # a file that was there keeps its mode otherwise
        with os.fdopen(descriptor, "w") as file:
            file.write(key + "\n")
    except OSError as error:
        raise fail(f"cannot write the key to {path}: {error.strerror}") from None


def _run(checking: Coroutine[Any, Any, Conformance]) -> Conformance:
    try:
        return asyncio.run(checking)
    except (BotLaunchError, DialInError) as error:
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None
