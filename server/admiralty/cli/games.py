"""`admiralty games`: the games, or one game's players, windows, actors and options."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from admiralty.cli.options import check_game
from admiralty.cli.output import UsageError, out, usage
from admiralty.console.games import games_table, print_game_info
from admiralty.games import GAMES, load_game


def games(
    game: Annotated[
        str | None,
        typer.Argument(
            help="A game to describe: its players, hidden information, windows, automated "
            "actors and options.",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Print the same as one JSON object, {"games": [...]}, every detail included.',
        ),
    ] = False,
) -> None:
    """List the games, one line each; with GAME, the details of that one."""
    try:
        infos = [check_game(game).info] if game else [load_game(name).info for name in GAMES]
    except UsageError as error:
        raise usage(str(error)) from None
    if as_json:
        print(json.dumps({"games": [info.to_json() for info in infos]}))
    elif game:
        print_game_info(out, infos[0])
    else:
        out.print(games_table(infos))
        out.print(
            "`admiralty games GAME` describes one: its options, windows and automated actors.",
            highlight=False,
            markup=False,
        )
