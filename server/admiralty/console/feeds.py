"""Feed a MatchScreen from a live local match, a referee's Watch stream, or a record.

Only the viewer's share reaches the screen: a seat's events and `view(seat)` (the public's
without a seat), unless an omniscient watcher was authorised by the referee. Pacing a
replay or a live screen never touches a bot's clock: the referee times only the calls to
the bots, and a paused screen holds the match between two decisions.
"""

from __future__ import annotations

import copy
import html
import io
import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from rich.console import CONSOLE_HTML_FORMAT, Console
from rich.live import Live
from rich.text import Text

from admiralty.console.screen import MatchScreen, legend_text, plain
from admiralty.console.terminal import quiet_keys
from admiralty.games import Event, GameState, Request, Viewer, load_game
from admiralty.referee.match import Answer, Incident
from admiralty.referee.remote import referee_channel
from admiralty.referee.timeline import (
    Decision,
    Timeline,
    decision_of,
    frame_after,
    read_timeline,
    record_result,
)
from admiralty_sdk.v1 import common_pb2, referee_pb2, referee_pb2_grpc

ENDINGS = {
    "aborted": "the match was aborted",
    "truncated": "the file is cut short",
    "header": "the match was cut short",
}


class Pacer:
    """Holds a step that added to the log on screen for `delay` seconds (0: not at all)."""

    def __init__(self, delay: float, sleep: Callable[[float], Any] = time.sleep):
        self.delay = delay
        self._sleep = sleep

    def hold(self) -> None:
        if self.delay > 0:
            self._sleep(self.delay)


class LocalFeed:
    """The referee's listeners that show a local match as `viewer` sees it."""

    def __init__(
        self,
        screen: MatchScreen,
        viewer: Viewer,
        pacer: Pacer,
        refresh: Callable[[], Any] = lambda: None,
    ):
        self.screen = screen
        self.viewer = viewer
        self.pacer = pacer
        self.refresh = refresh
        self._decision: Decision | None = None
        self._incidents: list[dict[str, Any]] = []

    def decided(
        self, step: int, request: Request, answer: Answer, incidents: Sequence[Incident]
    ) -> None:
        self._decision = decision_of(step, request, answer.index, answer.latency_ms, answer.how)
        self._incidents = [incident.to_json() for incident in incidents]

    def stepped(self, step: int, events: Sequence[Event], state: GameState) -> None:
        before = len(self.screen.log)
        self.screen.show(
            frame_after(step, events, state, self.viewer, self._decision, self._incidents)
        )
        self._decision, self._incidents = None, []
        if len(self.screen.log) > before and self.pacer.delay > 0:
            self.refresh()  # each paced step is drawn; unpaced, the screen redraws itself
            self.pacer.hold()


@contextmanager
def live_display(screen: MatchScreen, console: Console | None) -> Iterator[Live | None]:
    """A live screen on a terminal, keys pressed meanwhile not echoed; elsewhere (or with no
    console) nothing: the caller prints a transcript or exports the end."""
    if console is None or not console.is_terminal:
        yield None
        return
    with (
        quiet_keys(),
        Live(screen, console=console, refresh_per_second=4, vertical_overflow="crop") as live,
    ):
        yield live


def _message_json(message) -> dict[str, Any]:
    """A typed message as the engine's plain JSON (zeros and empty lists included)."""
    return plain(
        json_format.MessageToDict(
            message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
        )
    )


def watch_remote(
    address: str,
    match_id: str,
    token: str,
    console: Console,
    tls_ca: bytes | None = None,
    seat: int | None = None,
    legend: bool = False,
) -> MatchScreen:
    """Follow `RefereeService.Watch` until the match ends, as `seat` sees it if given (the
    referee asks for the admin token then); returns the final screen. With `tls_ca` (PEM
    root certificates) the connection is TLS."""
    with referee_channel(address, tls_ca) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        frames = iter(
            stub.Watch(referee_pb2.WatchRequest(match_id=match_id, token=token, seat=seat))
        )
        first = next((frame for frame in frames if frame.HasField("match_info")), None)
        if first is None:
            raise ValueError(f"match {match_id} ended before it started")
        info = first.match_info
        board = _message_json(getattr(info, info.WhichOneof("board")))
        screen = MatchScreen(
            info.game, board, list(info.bot_names), seat, legend, match_id=match_id
        )
        with live_display(screen, console):
            for frame in itertools.chain([first], frames):
                if frame.HasField("decision") and seat is not None:
                    screen.decide(*_decision(frame.decision, seat))
                event = _message_json(frame.event) if frame.HasField("event") else None
                view = (
                    plain(json_format.MessageToDict(frame.view)) if frame.HasField("view") else None
                )
                screen.update(event, view)
                if frame.HasField("result"):
                    screen.finish(_message_json(frame.result))
    return screen


def _decision(
    message: referee_pb2.SeatDecision, seat: int
) -> tuple[Decision, list[dict[str, Any]]]:
    """A watched seat's decision as the screen takes it, with its incidents."""
    decision = Decision(
        message.step,
        seat,
        message.kind,
        message.prompt,
        tuple((option.key, option.label) for option in message.options),
        message.chosen,
        message.latency_ms,
        message.how,
    )
    incidents = [
        {**_message_json(incident), "kind": _INCIDENT_NAMES[incident.kind]}
        for incident in message.incidents
    ]
    return decision, incidents


_INCIDENT_NAMES = {
    number: name.removeprefix("INCIDENT_KIND_").lower()
    for name, number in common_pb2.IncidentKind.items()
}
"""Incident kinds as the record names them ("timeout"), by their protobuf numbers."""


def replay_screen(
    path: Path,
    console: Console | None,
    viewer: Viewer = None,
    delay: float = 0.0,
    legend: bool = False,
) -> MatchScreen:
    """Show a recorded match as `viewer` saw it, re-run by the engine: `delay` seconds per
    step that adds to the log (0 = at once). Off a terminal, or with no console, nothing is
    drawn: the caller prints the returned screen's transcript or exports it."""
    timeline = read_timeline(path, viewer)
    screen = screen_for(timeline, legend)
    pacer = Pacer(delay)
    with live_display(screen, console) as display:
        for frame in timeline.frames:
            before = len(screen.log)
            screen.show(frame)
            if display is not None and delay > 0 and len(screen.log) > before:
                display.refresh()
                pacer.hold()
        end(screen, timeline)
        if display is not None:
            display.refresh()
    return screen


def screen_for(timeline: Timeline, legend: bool = False) -> MatchScreen:
    return MatchScreen(
        timeline.game,
        load_game(timeline.game).static_info(),
        timeline.seats,
        timeline.viewer,
        legend,
        timeline.seed,
        timeline.match_id,
    )


def end(screen: MatchScreen, timeline: Timeline) -> None:
    """The result, or a note saying where and why the record stops."""
    if timeline.result is not None:
        screen.finish(record_result(timeline.result, timeline.seats))
    else:
        screen.note(
            f"The record ends after {len(timeline.frames) - 1} decisions, with no "
            f"result: {ENDINGS[timeline.ending]}."
        )


def export(screen: MatchScreen, path: Path, width: int, height: int) -> None:
    """Write a page titled with the match (`screen.title()`): the final screen, the legend,
    then the whole log, as HTML or SVG (by `path`'s suffix)."""
    console = Console(
        record=True,
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
    )
    title = screen.title()
    final = copy.copy(screen)
    final.legend = False  # the legend follows it whole, whatever room the screen had
    console.print(Text(title, style="bold"))
    console.print(final)
    console.print(legend_text(screen.renderer.LEGEND))
    console.rule("the whole log")
    console.print(screen.transcript())
    if path.suffix.lower() == ".svg":
        console.save_svg(str(path), title=title)
    else:
        head = f"<head>\n<title>{html.escape(title)}</title>"
        console.save_html(
            str(path),
            code_format=CONSOLE_HTML_FORMAT.replace(
                "<head>", head.replace("{", "{{").replace("}", "}}"), 1
            ),
        )
