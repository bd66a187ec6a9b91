"""The `admiralty` command: play matches, serve the referee, replay records, run
tournaments. One module per command or group of commands; this one assembles them."""

from __future__ import annotations

from typing import Annotated

import admiralty.grpc_quiet  # noqa: F401  (first: grpc reads GRPC_VERBOSITY on import)

# isort: split
import typer

from admiralty import __version__
from admiralty.cli.arena import arena_app
from admiralty.cli.check_bot import check_bot_command
from admiralty.cli.games import games
from admiralty.cli.match import match_app
from admiralty.cli.output import UsageError, out, usage
from admiralty.cli.plain_help import Typer
from admiralty.cli.play import play
from admiralty.cli.records import records_app
from admiralty.cli.replay import replay
from admiralty.cli.serve import serve
from admiralty.cli.tournament import tournament_app
from admiralty.cli.watch import watch
from admiralty.cli.web import web

app = Typer(
    help="Referee and tournaments for bots playing Jamaica, Black Fleet and Blackbeard.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(asked: bool) -> None:
    """`--version`: the installed distribution's version, before any command runs."""
    if asked:
        out.print(f"admiralty {__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """The options that come before a command."""


app.command()(games)
app.command()(play)
app.command("check-bot")(check_bot_command)
app.command()(replay)
app.command()(watch)
app.add_typer(match_app, name="match")
app.command()(serve)
app.add_typer(tournament_app, name="tournament")
app.command()(web)
app.add_typer(arena_app, name="arena")
app.add_typer(records_app, name="records")


def main() -> None:
    try:
        app()
    except UsageError as error:
        raise SystemExit(usage(str(error)).exit_code) from None
