"""`admiralty tournament`: round-robin tournaments, played (`run`, `resume`) and read
(`show`, `list`, `delete`)."""

from admiralty.cli.plain_help import Typer
from admiralty.cli.tournament.run import tournament_resume, tournament_run
from admiralty.cli.tournament.stored import (
    tournament_delete,
    tournament_list,
    tournament_show,
)

tournament_app = Typer(
    help="Round-robin tournaments, ranked by TrueSkill and stored in SQLite. A one-seat "
    "tournament (--players 1: each bot alone against the game's automated opponent) plays "
    "every bot on the same deals and ranks by mean margin instead.",
    no_args_is_help=True,
)
tournament_app.command("run")(tournament_run)
tournament_app.command("resume")(tournament_resume)
tournament_app.command("show")(tournament_show)
tournament_app.command("list")(tournament_list)
tournament_app.command("delete")(tournament_delete)
