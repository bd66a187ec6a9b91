"""The options and arguments several commands share, and the checks of what they take."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from admiralty.cli.output import UsageError, usage
from admiralty.games import GAMES, Game, load_game
from admiralty.referee import FailurePolicy

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
    float,
    typer.Option(
        help="Seconds per decision (0.001 to 86400).", callback=within(0.001), metavar="SECONDS"
    ),
]
TimeBankOption = Annotated[
    float,
    typer.Option(
        help="Seconds per seat for the whole match (0.001 to 86400).",
        callback=within(0.001),
        metavar="SECONDS",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
StartupOption = Annotated[
    float,
    typer.Option(
        help="Seconds a spawned bot has to answer Hello (0.1 to 86400).",
        callback=within(0.1),
        metavar="SECONDS",
    ),
]
GameOptionsOption = Annotated[
    list[str],
    typer.Option(
        "--option",
        "-o",
        metavar="NAME=VALUE",
        help="A game option (`admiralty games GAME` lists them); repeat it for each.",
    ),
]
BotUserOption = Annotated[
    str | None,
    typer.Option(
        "--bot-user",
        metavar="USER",
        show_default=False,
        help="Run every bot admiralty starts as USER (admiralty must run as root), in "
        "a working directory of USER's: it cannot read files only you may read.",
    ),
]
SandboxOption = Annotated[
    bool,
    typer.Option(
        "--sandbox",
        help="Start every bot in a bubblewrap (bwrap) sandbox of its "
        "own: its own directory, no view of your processes or files (the system's "
        "are read-only), no network but the referee's connection to it. For "
        "untrusted bots; docs/security.md says what it sees.",
    ),
]
GameArgument = Annotated[str, typer.Argument(help=f"The game: {', '.join(GAMES)}.")]
SeatViewOption = Annotated[
    int | None,
    typer.Option(
        "--seat",
        min=0,
        help="Show the match as this seat saw it: its own cards, "
        "each request it got (kind, prompt, options by key and label), the option "
        "applied, its latency and incidents. Omitted, as a spectator sees it.",
    ),
]
LegendOption = Annotated[
    bool, typer.Option("--legend", help="Show what every glyph of the board means.")
]
ExportOption = Annotated[
    Path | None,
    typer.Option(
        "--export",
        help="Write a page titled with the match (game, seats, seed "
        "or match id, result) holding the final screen, the legend and the whole log "
        "to this file: HTML, or SVG if it ends in .svg. (`replay --export` writes its "
        "HTML as the web replay viewer, every step in one file.)",
        dir_okay=False,
    ),
]


def check_game(name: str, players: int | None = None) -> Game:
    """The game `name`, which must take `players` seats if given; UsageError otherwise."""
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
