"""The games as `admiralty games` prints them: a table of them all, or one game's info.
All plain text: rich would read a rule citation such as [jamaica G6] as markup and drop it."""

from __future__ import annotations

import json
from collections.abc import Sequence

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from admiralty.games import GameInfo


def games_table(infos: Sequence[GameInfo]) -> Table:
    """One line a game: its name, player range and summary."""
    table = Table(
        "game", "players", "about", box=None, pad_edge=False, header_style="bold underline"
    )
    for info in infos:
        table.add_row(info.name, f"{info.min_players}-{info.max_players}", info.summary)
    return table


def print_game_info(console: Console, info: GameInfo) -> None:
    """One game: its summary, a line of facts, its automated actors, then each option (name,
    default, what it takes) over its meaning."""

    def show(text: Text, indent: int = 0) -> None:
        console.print(Padding(text, (0, 0, 0, indent), expand=False))

    hidden = "hidden" if info.hidden_information else "perfect"
    show(Text.assemble((info.name, "bold"), f" ({info.title}): {info.summary}"))
    show(
        Text(
            f"{info.min_players}-{info.max_players} players, usually "
            f"{info.default_players}; {hidden} information; windows "
            f"{', '.join(info.windows)}"
        ),
        2,
    )
    for actor in info.automated:
        show(
            Text(
                f"automated: {actor.name}, in {'/'.join(map(str, actor.players))}-player "
                f"games; decided by {actor.decided_by}"
            ),
            2,
        )
    show(Text("options (play --option NAME=VALUE):", style="bold"))
    for spec in (spec.to_json() for spec in info.options):
        show(
            Text.assemble(
                (spec["name"], "bold"),
                f" = {json.dumps(spec['default'])}",
                (f" ({spec['takes']})", "dim"),
            ),
            2,
        )
        show(Text(spec["help"]), 6)
