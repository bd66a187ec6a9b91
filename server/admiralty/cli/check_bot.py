"""`admiralty check-bot`: whether a bot keeps the protocol, before it plays for real."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from typing import Annotated

import typer

from admiralty.cli.options import (
    MAX_SEED,
    BotUserOption,
    DeadlineOption,
    JsonOption,
    SandboxOption,
    StartupOption,
)
from admiralty.cli.output import err, fail, out
from admiralty.console.conformance import print_conformance
from admiralty.referee import BotLaunchError
from admiralty.referee.conformance import check_bot
from admiralty.referee.launcher import STARTUP_TIMEOUT, Isolation


def check_bot_command(
    bot: Annotated[
        str, typer.Argument(help="The bot: a Python file, a command, or grpc://host:port.")
    ],
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
            report = asyncio.run(
                check_bot(
                    bot,
                    seed,
                    deadline,
                    matches,
                    startup_timeout,
                    Isolation(bot_user, sandbox),
                    progress=lambda stage: status.update(f"checking {bot}: {stage}"),
                )
            )
    except BotLaunchError as error:
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None
    if as_json:
        print(json.dumps(report.to_json()))
    else:
        print_conformance(out, report)
    if report.failed:
        raise typer.Exit(code=1)
