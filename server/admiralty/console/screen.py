"""The match screen: one rich renderable for live matches, watched matches and replays.

It is fed views and events (plain JSON, as the referee sends them to a spectator) and
never touches an engine, so what it shows is exactly what its viewer may see. Each game
supplies a renderer module with `describe(event, names)` (one line of plain English, or
None for events not worth a line; a line starting with "— " continues the previous one)
and `body(view, board, names, width)` (the board and the players).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import Any, Protocol

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from admiralty.games import load_game

SEAT_STYLES = ("red", "blue", "green", "yellow", "magenta", "cyan")
GHOST_STYLE = "bold white on grey23"


class GameRenderer(Protocol):
    def describe(self, event: Mapping[str, Any], names: Sequence[Text]) -> str | Text | None: ...

    def body(self, view: Mapping[str, Any], board: Mapping[str, Any],
             names: Sequence[Text], width: int) -> RenderableType: ...

    def header(self, view: Mapping[str, Any], names: Sequence[Text]) -> Text: ...

    def omniscient(self, public: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
                   ) -> Mapping[str, Any]:
        """One view showing everything, from the public view and every seat's own."""


def renderer_for(game: str) -> GameRenderer:
    return import_module(f"admiralty.console.{game}")


def opponent_name(game: str) -> str:
    """Who a lone seat plays against: the game's automated actor of one-player games."""
    try:
        actors = load_game(game).info.automated
    except ValueError:
        actors = ()
    names = [actor.name for actor in actors if 1 in actor.players]
    if not names:
        return "the automated opponent"
    return names[0] if names[0].lower().startswith("the ") else f"the {names[0]}"


def solo_verdict(game: str, placement: Mapping[str, Any]) -> str:
    """The result of a one-seat match in words: its score is the margin over the automated
    opponent; 0 or more wins, unless the seat forfeited (it would be placed last)."""
    margin = int(placement["score"])
    won = margin >= 0 and not placement.get("forfeited")
    opponent = opponent_name(game)
    return (f"won against {opponent}" if won else f"lost to {opponent}") + \
        f", margin {margin:+d}" + (" (forfeited)" if placement.get("forfeited") else "")


def plain(value: Any) -> Any:
    """JSON from a protobuf Struct has every number as a float; give integers back."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def seat_names(names: Sequence[str]) -> list[Text]:
    """Each seat's bot name in its seat colour; a repeated name gets its seat number."""
    repeated = {n for n in names if list(names).count(n) > 1}
    return [Text(f"{name}·{seat}" if name in repeated else name,
                 style=SEAT_STYLES[seat % len(SEAT_STYLES)])
            for seat, name in enumerate(names)]


class MatchScreen:
    """What a spectator sees of one match, updated frame by frame."""

    def __init__(self, game: str, board: Mapping[str, Any], names: Sequence[str],
                 log_size: int = 200):
        self.game = game
        self.board = board
        self.names = seat_names(names)
        self.renderer = renderer_for(game)
        self.view: Mapping[str, Any] | None = None
        self.log: deque[Text] = deque(maxlen=log_size)
        self.result: Mapping[str, Any] | None = None
        self.events_seen = 0

    def update(self, event: Mapping[str, Any] | None = None,
               view: Mapping[str, Any] | None = None) -> None:
        """Take one frame: an event (kind, data) and/or the view after it."""
        if event is not None:
            self.events_seen += 1
            line = self.renderer.describe(event, self.names)
            if line is not None:
                self._log(Text(line) if isinstance(line, str) else line)
        if view is not None:
            self.view = (self.renderer.omniscient(view["public"], view["by_seat"])
                         if "by_seat" in view else view)

    def _log(self, line: Text) -> None:
        if line.plain.startswith("— ") and self.log:
            self.log[-1] = Text.assemble(self.log[-1], " ", line)
        else:
            self.log.append(line)

    def note(self, text: str) -> None:
        """A line from the referee or the replayer rather than the game, e.g. where a
        partial record ends."""
        self._log(Text(text, style="yellow"))

    def finish(self, result: Mapping[str, Any]) -> None:
        """The match is over: `result` has placements (seat, bot, place, score) and incidents."""
        self.result = result

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        parts: list[RenderableType] = []
        if self.view is not None:
            parts.append(self.renderer.header(self.view, self.names))
            parts.append(self.renderer.body(self.view, self.board, self.names, width))
        if self.result is not None:
            parts.append(self._result_table())
        used = sum(len(console.render_lines(p, options, pad=False)) for p in parts)
        height = options.height or console.height
        room = max(3, height - used - 2)
        lines, rows = self._newest(console, options.update_width(max(1, width - 4)), room)
        parts.append(Panel(Group(*lines) if lines else Text("waiting for events…", style="dim"),
                           title="log", title_align="left", border_style="dim",
                           height=rows + 2 if lines else 3))
        yield Group(*parts)

    def _newest(self, console: Console, options: ConsoleOptions, room: int
                ) -> tuple[list[Text], int]:
        """The newest log lines that fill at most `room` screen rows once wrapped, and the
        rows they take: a long line takes several, and the newest must never be cut."""
        picked: list[Text] = []
        rows = 0
        for line in reversed(self.log):
            height = len(console.render_lines(line, options, pad=False))
            if picked and rows + height > room:
                break
            picked.append(line)
            rows += height
        return picked[::-1], min(rows, room)

    def _result_table(self) -> Table:
        if len(self.result["placements"]) == 1:
            return self._solo_table(self.result)
        table = Table(title="final", title_justify="left", expand=False)
        for column in ("place", "seat", "bot", "score"):
            table.add_column(column, justify="left" if column == "bot" else "right")
        for p in sorted(self.result["placements"], key=lambda p: (p["place"], p["seat"])):
            name = self.names[p["seat"]].copy()
            if p.get("forfeited"):
                name.append(" (forfeited)", style="dim")
            table.add_row(str(p["place"]), str(p["seat"]), name, str(p["score"]))
        for incident in self.result.get("incidents", []):
            table.add_row("", str(incident["seat"]), Text(
                f"{incident['kind']}: {incident['detail']}", style="yellow"), "")
        return table

    def _solo_table(self, result: Mapping[str, Any]) -> Table:
        """A lone seat's result: won or lost against the automated opponent, and by how much."""
        table = Table(title="final", title_justify="left", expand=False)
        for column in ("seat", "bot", "margin", "result"):
            table.add_column(column, justify="right" if column == "margin" else "left")
        placement = result["placements"][0]
        table.add_row(str(placement["seat"]), self.names[placement["seat"]].copy(),
                      f"{int(placement['score']):+d}", solo_verdict(self.game, placement))
        for incident in result.get("incidents", []):
            table.add_row(str(incident["seat"]), Text(
                f"{incident['kind']}: {incident['detail']}", style="yellow"), "", "")
        return table
