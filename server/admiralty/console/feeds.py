"""Feed a MatchScreen from a live local match, a referee's Watch stream, or a record.

Only the spectator's share reaches the screen: public events and `view(None)`, unless
an omniscient watcher was authorised by the referee. Pacing a replay or redrawing a
live screen never touches a bot's clock: the referee plays at the bots' speed and the
screen catches up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from rich.console import Console
from rich.live import Live

from admiralty.console.screen import MatchScreen, plain
from admiralty.games import Event, GameState, load_game
from admiralty.referee.record import read_record, replay_steps
from admiralty.referee.remote import referee_channel
from admiralty_sdk.v1 import referee_pb2, referee_pb2_grpc


def event_json(event: Event) -> dict[str, Any]:
    return {"kind": event.kind, "data": dict(event.data)}


def local_listener(screen: MatchScreen) -> Callable[[int, Sequence[Event], GameState], None]:
    """A referee listener that shows a local match as a spectator sees it."""

    def listen(step: int, events: Sequence[Event], state: GameState) -> None:
        for event in events:
            if event.visible_to(None):
                screen.update(event_json(event))
        screen.update(view=state.view(None))

    return listen


def _message_json(message) -> dict[str, Any]:
    """A typed message as the engine's plain JSON (zeros and empty lists included)."""
    return plain(json_format.MessageToDict(message, preserving_proto_field_name=True,
                                           always_print_fields_with_no_presence=True))


def watch_remote(address: str, match_id: str, token: str, console: Console,
                 tls_ca: bytes | None = None) -> MatchScreen:
    """Follow `RefereeService.Watch` until the match ends; returns the final screen. With
    `tls_ca` (PEM root certificates) the connection is TLS."""
    screen: MatchScreen | None = None
    with referee_channel(address, tls_ca) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        frames = stub.Watch(referee_pb2.WatchRequest(match_id=match_id, token=token))
        with Live(console=console, refresh_per_second=8) as live:
            for frame in frames:
                if frame.HasField("match_info"):
                    info = frame.match_info
                    board = _message_json(getattr(info, info.WhichOneof("board")))
                    screen = MatchScreen(info.game, board, list(info.bot_names))
                    live.update(screen)
                if screen is None:
                    continue
                event = _message_json(frame.event) if frame.HasField("event") else None
                view = plain(json_format.MessageToDict(frame.view)) if frame.HasField(
                    "view") else None
                screen.update(event, view)
                if frame.HasField("result"):
                    screen.finish(_message_json(frame.result))
    if screen is None:
        raise ValueError(f"match {match_id} ended before it started")
    return screen


def replay_screen(path: Path, console: Console, speed: float = 0.0, step: bool = False,
                  wait: Callable[[], Any] = input) -> MatchScreen:
    """Show a recorded match, re-run by the engine: `speed` events per second (0 = at once),
    or one `wait()` (a key press) per decision with `step`."""
    lines = read_record(path)
    header = next(lines)
    game = load_game(header["game"])
    screen = MatchScreen(header["game"], game.static_info(), header["seats"])
    with Live(screen, console=console, refresh_per_second=8, auto_refresh=not step) as live:
        decisions = -1  # the first step is the setup
        for events, state in _public_steps(header, lines):
            decisions += 1
            for event in events:
                screen.update(event_json(event))
                if speed:
                    time.sleep(1 / speed)
            screen.update(view=state.view(None))
            if step:
                live.refresh()
                wait()
        ending = _record_ending(path)
        if ending["t"] == "result":
            screen.finish(_record_result(ending, header))
        else:
            screen.note(f"The record ends after {decisions} decisions, with no result: "
                        f"{_ENDINGS[ending['t']]}.")
        live.refresh()
    return screen


def _public_steps(header: dict, lines: Iterator[dict]) -> Iterator[tuple[list[Event], GameState]]:
    for events, state in replay_steps(header, lines):
        yield [e for e in events if e.visible_to(None)], state


_ENDINGS = {"aborted": "the match was aborted", "truncated": "the file is cut short",
            "header": "the match was cut short"}


def _record_ending(path: Path) -> dict[str, Any]:
    """The record's last line that says how it ends: result, aborted or truncated."""
    ending = {"t": "header"}
    for line in read_record(path):
        if line["t"] in ("result", "aborted", "truncated"):
            ending = line
    return ending


def _record_result(result: dict[str, Any], header: dict) -> dict[str, Any]:
    return {
        "placements": [
            {"seat": seat, "bot": name, "place": place, "score": score,
             "forfeited": seat in result["forfeited"]}
            for seat, (name, place, score) in enumerate(
                zip(header["seats"], result["places"], result["scores"], strict=True))
        ],
        "incidents": result["incidents"],
    }
