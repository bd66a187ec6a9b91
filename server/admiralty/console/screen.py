"""The match screen: one rich renderable for live matches, watched matches and replays.

It is fed views and events (plain JSON, as the referee sends them to its viewer) and
never touches an engine, so what it shows is exactly what its viewer may see. Each game
supplies a renderer module with `describe(event, names)` (one line of plain English, or
None for events not worth a line; a line starting with "— " continues the previous one),
`body(view, board, names, width, compact)` (the board and the players), `secrets(view,
seat, board)` (the cards only that seat sees), `LEGEND` (every glyph and its meaning) and
`ROUND_KEY` (the view's round counter).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import import_module
from typing import Any, Protocol

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from admiralty.console.seat_panel import decision_line, options_text, seat_panel
from admiralty.games import load_game
from admiralty.referee.match import won_alone
from admiralty.referee.timeline import Decision, Frame
from admiralty.text import display_names, printable

SEAT_STYLES = ("red", "blue", "green", "yellow", "magenta", "cyan")
GHOST_STYLE = "bold white on grey23"


class GameRenderer(Protocol):
    LEGEND: Sequence[tuple[str, str]]
    ROUND_KEY: str
    SCORE_NAME: str

    def describe(self, event: Mapping[str, Any], names: Sequence[Text]) -> str | Text | None: ...

    def body(
        self,
        view: Mapping[str, Any],
        board: Mapping[str, Any],
        names: Sequence[Text],
        width: int,
        compact: bool = False,
    ) -> RenderableType: ...

    def secrets(
        self, view: Mapping[str, Any], seat: int, board: Mapping[str, Any]
    ) -> list[Text]: ...

    def header(self, view: Mapping[str, Any], names: Sequence[Text]) -> Text: ...

    def score_parts(self, view: Mapping[str, Any]) -> dict[str, list[Any]]:
        """Columns of the final table after the score, each a value per seat: what the
        ranking counts besides the score."""

    def omniscient(
        self, public: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
    ) -> Mapping[str, Any]:
        """One view showing everything, from the public view and every seat's own."""


@cache
def _measurer() -> Console:
    return Console(file=io.StringIO(), width=1000)


def natural_width(renderable: RenderableType) -> int:
    """The columns `renderable` takes when nothing squeezes it."""
    console = _measurer()
    return Measurement.get(console, console.options, renderable).maximum


def height_at(renderable: RenderableType, width: int) -> int:
    """The lines `renderable` takes in `width` columns."""
    console = _measurer()
    return len(console.render_lines(renderable, console.options.update(width=width), pad=False))


def side_by_side(left: RenderableType, right: RenderableType, width: int) -> RenderableType | None:
    """`left` and `right` beside each other, two columns apart, when both fit in `width`
    unsqueezed; None when they do not (the board then stacks them)."""
    if natural_width(left) + 2 + natural_width(right) > width:
        return None
    layout = Table.grid(padding=(0, 2))
    layout.add_row(left, right)
    return layout


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
    won = won_alone(margin, bool(placement.get("forfeited")))
    opponent = opponent_name(game)
    return (
        (f"won against {opponent}" if won else f"lost to {opponent}")
        + f", margin {margin:+d}"
        + (" (forfeited)" if placement.get("forfeited") else "")
    )


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
    """Each seat's bot name in its seat colour, control characters escaped, a repeated name
    told apart as everywhere else (`display_names`: "random", "random #2")."""
    return [
        Text(printable(name), style=SEAT_STYLES[seat % len(SEAT_STYLES)])
        for seat, name in enumerate(display_names(names))
    ]


class MatchScreen:
    """What one viewer (a spectator, or a seat with `viewer`) sees of one match, frame by
    frame. The whole log is kept: the screen shows its newest lines, a transcript all."""

    def __init__(
        self,
        game: str,
        board: Mapping[str, Any],
        names: Sequence[str],
        viewer: int | None = None,
        legend: bool = False,
        seed: int | None = None,
        match_id: str = "",
    ):
        self.game = game
        self.seed = seed
        self.match_id = match_id
        """Which match this is, as far as the viewer knows: for an export's title."""
        self.board = board
        self.names = seat_names(names)
        self.viewer = viewer
        self.legend = legend
        self.renderer = renderer_for(game)
        self.view: Mapping[str, Any] | None = None
        self.log: list[Text] = []
        self.details: dict[int, Text] = {}
        """The prompt and options of the seat's requests, by log line, for the transcript."""
        self.result: Mapping[str, Any] | None = None
        self.decision: Decision | None = None
        """The viewer's latest decision, and below the incidents its answer caused."""
        self.decision_incidents: list[Mapping[str, Any]] = []
        self.incident_steps: dict[tuple[int, str], int] = {}
        """The step of each (seat, request id) whose incidents the viewer was told."""
        self.step = 0
        self._game_line: int | None = None
        self.status: Text | None = None
        """A line kept under the log, e.g. an interactive replay's keys."""

    @property
    def round(self) -> int:
        """The game's round (Blackbeard: turn) in the view shown, 0 before the first."""
        return int((self.view or {}).get(self.renderer.ROUND_KEY) or 0)

    def update(
        self, event: Mapping[str, Any] | None = None, view: Mapping[str, Any] | None = None
    ) -> None:
        """Take one frame: an event (kind, data) and/or the view after it."""
        if event is not None:
            line = self.renderer.describe(event, self.names)
            if line is not None:
                self._log(Text(line) if isinstance(line, str) else line)
        if view is not None:
            self.view = (
                self.renderer.omniscient(view["public"], view["by_seat"])
                if "by_seat" in view
                else view
            )

    def show(self, frame: Frame) -> None:
        """Take one step of a timeline: the viewer's own decision (logged, its prompt and
        options kept for the transcript) and the incidents of its answer, both in the
        round they happened in, then the events they caused and the view after them."""
        self.step = frame.step
        self.decide(frame.decision, frame.incidents)
        for event in frame.events:
            self.update(event)
        self.update(view=frame.view)

    def decide(self, decision: Decision | None, incidents: Sequence[Mapping[str, Any]]) -> None:
        """The viewer's decision at this step (logged if the seat was asked, its prompt and
        options kept for the transcript) and the incidents of the step's answer."""
        if decision is not None:
            self.step = decision.step
            self.decision, self.decision_incidents = decision, list(incidents)
            if decision.asked:
                self.log.append(decision_line(decision, self.names[decision.seat]))
                self.details[len(self.log) - 1] = Text(decision.prompt + "\n") + options_text(
                    decision
                )
        for incident in incidents:
            self.incident_steps[(incident["seat"], incident["request_id"])] = self.step
            self.log.append(self.incident_line(incident))

    def incident_line(self, incident: Mapping[str, Any], where: str | None = None) -> Text:
        """An incident at the moment it happened: the step it was applied at, the round it
        was asked in (or `where`), the seat, the kind and the detail."""
        where = where or f"step {self.step}, {self.renderer.ROUND_KEY} {self.round}"
        return Text.assemble(
            Text(f"⚠ {where}: ", style="bold yellow"),
            self.names[incident["seat"]],
            Text(f" {incident['kind']}: {printable(incident['detail'])}", style="yellow"),
        )

    def _log(self, line: Text) -> None:
        """A game's line; one starting "— " continues the game's previous line, even
        across the seat's decision lines between them."""
        if line.plain.startswith("— ") and self._game_line is not None:
            self.log[self._game_line] = Text.assemble(self.log[self._game_line], " ", line)
        else:
            self.log.append(line)
            self._game_line = len(self.log) - 1

    def note(self, text: str) -> None:
        """A line from the referee or the replayer rather than the game, e.g. where a
        partial record ends."""
        self._log(Text(text, style="yellow"))

    def finish(self, result: Mapping[str, Any]) -> None:
        """The match is over: `result` has placements (seat, bot, place, score) and incidents."""
        self.result = result

    def title(self) -> str:
        """The match in one line: the game, the seats, the seed and match id as far as
        known, and the result (places and scores; one seat's verdict)."""
        seed = [f"seed {self.seed}"] if self.seed is not None else []
        match = [f"match {self.match_id}"] if self.match_id else []
        return " · ".join(
            [
                self.game,
                ", ".join(name.plain for name in self.names),
                *seed,
                *match,
                self._outcome(),
            ]
        )

    def _outcome(self) -> str:
        if self.result is None:
            return "no result"
        placements = self.result["placements"]
        if len(placements) == 1:
            return solo_verdict(self.game, placements[0])
        return ", ".join(
            f"{p['place']}. {self.names[p['seat']].plain} {p['score']}"
            + (" (forfeited)" if p.get("forfeited") else "")
            for p in sorted(placements, key=lambda p: (p["place"], p["seat"]))
        )

    # ---------------------------------------------------------------- rendering

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The richest layout that leaves room for the newest log line, the result and the
        status line: the board and the seat's panel shrink, then go, in that order."""
        width = options.max_width
        height = options.height or console.height
        tail: list[RenderableType] = [self.result_table()] if self.result is not None else []
        log_options = options.update(width=max(1, width - 4), height=None)
        newest = self._rows(console, log_options, self.log[-1]) if self.log else 1
        status = [self.status] if self.status is not None else []
        fixed = self._rows(console, options, *tail, *status) + newest + 2
        top: list[RenderableType] = []
        for top in self._layouts(width):
            if self._rows(console, options, *top) + fixed <= height:
                break
        room = max(newest, height - self._rows(console, options, *top, *tail, *status) - 2)
        lines, rows = self._newest(console, log_options, room)
        log = Panel(
            Group(*lines) if lines else Text("waiting for events…", style="dim"),
            title="log",
            title_align="left",
            border_style="dim",
            height=rows + 2 if lines else 3,
        )
        yield Group(*top, *tail, log, *status)

    def _layouts(self, width: int) -> list[list[RenderableType]]:
        """From the richest to the leanest: the board in full, in its compact form, none."""
        if self.view is None:
            return [[]]
        header = self.renderer.header(self.view, self.names)
        legend = [legend_text(self.renderer.LEGEND)] if self.legend else []
        if self.viewer is None:
            return [
                [header, self._body(width, False), *legend],
                [header, self._body(width, True), *legend],
                [header],
            ]
        side = width >= 110
        board_width = width - 44 if side else width
        return [
            [
                header,
                self._beside(self._body(board_width, False), self._panel(None), side),
                *legend,
            ],
            [header, self._beside(self._body(board_width, True), self._panel(2), side)],
            [header, self._panel(1)],
            [header, self._panel(0)],
            [header],
        ]

    def _body(self, width: int, compact: bool) -> RenderableType:
        assert self.view is not None
        return self.renderer.body(self.view, self.board, self.names, width, compact=compact)

    def _panel(self, around: int | None) -> RenderableType:
        assert self.view is not None and self.viewer is not None
        secrets = self.renderer.secrets(self.view, self.viewer, self.board)
        return seat_panel(
            self.names[self.viewer], secrets, self.decision, self.decision_incidents, around
        )

    @staticmethod
    def _beside(body: RenderableType, panel: RenderableType, side: bool) -> RenderableType:
        if not side:
            return Group(body, panel)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(ratio=1)
        grid.add_column(width=43)
        grid.add_row(body, panel)
        return grid

    @staticmethod
    def _rows(console: Console, options: ConsoleOptions, *parts: RenderableType) -> int:
        options = options.update(height=None)
        return sum(len(console.render_lines(p, options, pad=False)) for p in parts)

    def _newest(
        self, console: Console, options: ConsoleOptions, room: int
    ) -> tuple[list[Text], int]:
        """The newest log lines that fill at most `room` screen rows once wrapped, and the
        rows they take: a long line takes several, and the newest is always shown whole."""
        picked: list[Text] = []
        rows = 0
        for line in reversed(self.log):
            height = self._rows(console, options, line)
            if picked and rows + height > room:
                break
            picked.append(line)
            rows += height
        return picked[::-1], rows

    def transcript(self) -> RenderableType:
        """The whole log, each of the seat's requests with its options, then the result."""
        lines: list[RenderableType] = []
        for index, line in enumerate(self.log):
            lines.append(line)
            if index in self.details:
                lines += [Text("    ") + row for row in self.details[index].split()]
        if self.result is not None:
            lines.append(self.result_table())
            lines += [
                self.incident_line(incident, "in the result")
                for incident in self.result.get("incidents", [])
                if (incident["seat"], incident["request_id"]) not in self.incident_steps
            ]
        return Group(*lines)

    def result_table(self) -> RenderableType:
        """The final table and, under it, the incidents by seat and kind: one row per kind
        however often a bot failed, so the result stays on screen (the log has each)."""
        assert self.result is not None
        final = (
            self._solo_table(self.result)
            if len(self.result["placements"]) == 1
            else self._placements_table(self.result)
        )
        incidents = self.result.get("incidents", [])
        return Group(final, incidents_table(incidents, self.incident_steps)) if incidents else final

    def _placements_table(self, result: Mapping[str, Any]) -> Table:
        parts = self.renderer.score_parts(self.view) if self.view is not None else {}
        table = Table(title="final", title_justify="left", expand=False)
        for column in ("place", "seat", "bot", self.renderer.SCORE_NAME, *parts):
            table.add_column(
                column, justify="left" if column == "bot" else "right", no_wrap=column != "bot"
            )
        for p in sorted(result["placements"], key=lambda p: (p["place"], p["seat"])):
            name = self.names[p["seat"]].copy()
            if p.get("forfeited"):
                name.append(" (forfeited)", style="dim")
            table.add_row(
                str(p["place"]),
                str(p["seat"]),
                name,
                str(p["score"]),
                *(str(values[p["seat"]]) for values in parts.values()),
            )
        return table

    def _solo_table(self, result: Mapping[str, Any]) -> Table:
        """A lone seat's result: won or lost against the automated opponent, and by how much."""
        table = Table(title="final", title_justify="left", expand=False)
        for column in ("seat", "bot", "margin", "result"):
            table.add_column(column, justify="right" if column == "margin" else "left")
        placement = result["placements"][0]
        table.add_row(
            str(placement["seat"]),
            self.names[placement["seat"]].copy(),
            f"{int(placement['score']):+d}",
            solo_verdict(self.game, placement),
        )
        return table


def incidents_table(
    incidents: Sequence[Mapping[str, Any]], steps: Mapping[tuple[int, str], int]
) -> Table:
    """The incidents by seat and kind: how many, the first and last step they were applied
    at (`steps`, by seat and request id; a seat retired before it was asked at 0; - where
    not known), the first detail (what went wrong: a bot's error, where it raised) and,
    when it differs, the last (a seat retired says so last). A bot failing one decision in
    three makes hundreds: the log, --json and the record keep each."""
    groups: dict[tuple[int, str], list[Mapping[str, Any]]] = {}
    for incident in sorted(incidents, key=lambda incident: incident["seat"]):
        groups.setdefault((incident["seat"], incident["kind"]), []).append(incident)
    table = Table(title="incidents", title_justify="left", expand=False)
    for column in ("seat", "kind", "count", "steps", "detail"):
        table.add_column(
            column,
            justify="right" if column in ("count", "steps") else "left",
            no_wrap=column != "detail",
        )
    for (seat, kind), group in groups.items():
        known = [steps.get((seat, i["request_id"])) if i["request_id"] else 0 for i in group]
        at = [step for step in known if step is not None]
        span = "-" if not at else str(min(at)) if min(at) == max(at) else f"{min(at)}-{max(at)}"
        first, last = group[0]["detail"], group[-1]["detail"]
        detail = first if last == first else f"{first}\nlast: {last}"
        table.add_row(
            str(seat),
            kind,
            str(len(group)),
            span,
            Text(printable(detail, lines=True), style="yellow"),
        )
    return table


def legend_text(entries: Sequence[tuple[str, str]]) -> Text:
    """The board's glyphs and what they mean, as one wrapping line."""
    return Text("legend: ", style="bold dim") + Text("  ").join(
        [Text.assemble((glyph, "bold"), f" {meaning}") for glyph, meaning in entries]
    )
