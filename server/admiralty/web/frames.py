"""A match as the web viewer's frames: one JSON shape for a record, a live Watch stream and
an export, so the browser only shows and navigates them.

A frame is one step as the viewer saw it:

    {"step": int, "round": int, "svg": str, "log": [str, ...], "decision": null |
     {"seat", "kind", "prompt", "options": [[key, label], ...], "chosen", "latency_ms",
      "how", "asked"}, "incidents": [{"request_id", "seat", "kind", "detail", "applied_index"}]}

`svg` is the board drawn from the engine's own view (`board_svg`), `log` the console's lines
for the step's events (its describers, as plain text), `decision` the viewer's own request
at the step and `incidents` those it may know of. Around the frames, a header says what the
screen needs: the game, the seats, the viewer, how many frames, the first frame of each
round, the frames with incidents and with the seat's decisions, and the result.

A record's frames are re-derived by the engine (`read_timeline`), once per record and
viewer and kept in a small cache; boards are drawn only for the frames asked for, since
drawing is most of the cost.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from google.protobuf import json_format

from admiralty.console.feeds import ENDINGS, _decision, _message_json, end, screen_for
from admiralty.console.screen import GameRenderer, plain, renderer_for, seat_names
from admiralty.console.seat_panel import HOW
from admiralty.games import Viewer
from admiralty.referee.timeline import Decision, Frame, Timeline, read_timeline, record_result
from admiralty.text import display_names
from admiralty.web.boards import board_svg
from admiralty_sdk.v1 import referee_pb2

CACHED_TIMELINES = 8
"""Records (by viewer) kept re-derived: a long match takes a fraction of a second to re-run."""


def decision_json(decision: Decision | None) -> dict[str, Any] | None:
    if decision is None:
        return None
    return {
        "seat": decision.seat,
        "kind": decision.kind,
        "prompt": decision.prompt,
        "options": [list(option) for option in decision.options],
        "chosen": decision.chosen,
        "latency_ms": decision.latency_ms,
        "how": decision.how,
        "asked": decision.asked,
    }


class Steps:
    """What every frame of one viewer's match says besides its board: the log lines, the
    round, the decision and the incidents, in frame order."""

    def __init__(self, game: str, seats: Sequence[str]):
        self.game = game
        self.seats = list(seats)
        self.renderer: GameRenderer = renderer_for(game)
        self._names = seat_names(seats)

    def log(self, events: Sequence[Mapping[str, Any]]) -> list[str]:
        """The console's lines for `events`, plain; events not worth a line give none."""
        lines = (self.renderer.describe(event, self._names) for event in events)
        return [line if isinstance(line, str) else line.plain for line in lines if line is not None]

    def round(self, view: Mapping[str, Any]) -> int:
        """The game's round (Blackbeard: turn) in `view`, 0 before the first."""
        return int(view.get(self.renderer.ROUND_KEY) or 0)

    def text(
        self,
        step: int,
        view: Mapping[str, Any],
        log: list[str],
        decision: Decision | None,
        incidents: Sequence[Mapping[str, Any]],
    ) -> dict[str, Any]:
        """A frame without its board."""
        return {
            "step": step,
            "round": self.round(view),
            "log": log,
            "decision": decision_json(decision),
            "incidents": [dict(incident) for incident in incidents],
        }

    def frame(self, text: Mapping[str, Any], view: Mapping[str, Any]) -> dict[str, Any]:
        """A whole frame: `text` and the board drawn from `view`, in the documented order."""
        return {
            "step": text["step"],
            "round": text["round"],
            "svg": board_svg(self.game, view, self.seats),
            **{key: text[key] for key in ("log", "decision", "incidents")},
        }

    def header(self, viewer: Viewer, texts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The screen's facts about the match, from the frames without their boards."""
        rounds: dict[int, int] = {}
        for index, text in enumerate(texts):
            rounds.setdefault(text["round"], index)
        return {
            "game": self.game,
            "seats": self.seats,
            "names": display_names(self.seats),
            "viewer": viewer,
            "round_key": self.renderer.ROUND_KEY,
            "how": HOW,
            "frames": len(texts),
            "rounds": rounds,
            "incident_steps": [i for i, text in enumerate(texts) if text["incidents"]],
            "decision_steps": [
                i
                for i, text in enumerate(texts)
                if text["decision"] is not None and text["decision"]["asked"]
            ],
            "result": None,
            "ending": None,
        }


@dataclass
class Replay:
    """A recorded match as one viewer's frames: the text of all of them at once, the board
    of each only when asked for."""

    timeline: Timeline

    @cached_property
    def steps(self) -> Steps:
        return Steps(self.timeline.game, self.timeline.seats)

    @cached_property
    def texts(self) -> list[dict[str, Any]]:
        return [self._text(frame) for frame in self.timeline.frames]

    def _text(self, frame: Frame) -> dict[str, Any]:
        log = self.steps.log(frame.events)
        return self.steps.text(frame.step, frame.view, log, frame.decision, frame.incidents)

    def __len__(self) -> int:
        return len(self.timeline.frames)

    def frame(self, index: int) -> dict[str, Any]:
        return self.steps.frame(self.texts[index], self.timeline.frames[index].view)

    def frames(self, start: int, count: int) -> list[dict[str, Any]]:
        return [self.frame(i) for i in range(start, min(len(self), start + count))]

    def header(self) -> dict[str, Any]:
        """The header, with the result (or why the record has none, shown at the end) and
        a title naming the match, without the seed (the deal stays the referee's) or the
        result (no spoiler)."""
        timeline = self.timeline
        header = self.steps.header(timeline.viewer, self.texts)
        header["match_id"] = timeline.match_id
        header["title"] = " · ".join(
            [timeline.game, ", ".join(header["names"]), f"match {timeline.match_id}"]
        )
        if timeline.result is not None:
            header["result"] = record_result(timeline.result, timeline.seats)
        else:
            header["ending"] = (
                f"The record ends after {len(self) - 1} decisions, with no result: "
                f"{ENDINGS[timeline.ending]}."
            )
        return header

    def title(self) -> str:
        """The match in one line as the console's exports title it: the game, the seats,
        the seed, the match id and the result."""
        screen = screen_for(self.timeline)
        end(screen, self.timeline)
        return screen.title()


def replay(path: Path, viewer: Viewer) -> Replay:
    """The record at `path` as `viewer`'s frames, from the cache while the file is
    unchanged. Raises as `read_timeline` does for a file that is not a readable record."""
    stat = path.stat()
    return _replay(path, stat.st_mtime_ns, stat.st_size, viewer)


@lru_cache(maxsize=CACHED_TIMELINES)
def _replay(path: Path, mtime_ns: int, size: int, viewer: Viewer) -> Replay:
    return Replay(read_timeline(path, viewer))


@dataclass
class LiveFrames:
    """A referee's Watch stream as frames: each batch of events up to the view sent after
    them is one frame, with the seat's decision when one seat is watched. `take` turns one
    WatchResponse into what the viewer is sent: ("header", header), ("frame", frame) or
    ("result", result)."""

    viewer: Viewer
    steps: Steps | None = None
    frames: int = 0
    step: int = 0
    _log: list[str] = field(default_factory=list)
    _decision: Decision | None = None
    _incidents: list[dict[str, Any]] = field(default_factory=list)
    _view: Mapping[str, Any] = field(default_factory=dict)

    def take(self, message: referee_pb2.WatchResponse) -> Iterator[tuple[str, dict[str, Any]]]:
        if message.HasField("match_info"):
            self.steps = Steps(message.match_info.game, list(message.match_info.bot_names))
            header = self.steps.header(self.viewer, [])
            header["title"] = f"{self.steps.game} · {', '.join(header['names'])} · live"
            yield "header", header
        if self.steps is None:
            if message.HasField("result"):
                yield "result", _result_json(message.result)
            return
        if message.HasField("decision") and self.viewer is not None:
            self._decision, self._incidents = _decision(message.decision, self.viewer)
            self.step = self._decision.step
        if message.HasField("event"):
            event = _message_json(message.event)
            self.step = int(event.get("step", self.step))
            self._log += self.steps.log([event])
        if message.HasField("view"):
            yield "frame", self._frame(plain(json_format.MessageToDict(message.view)))
        if message.HasField("result"):
            if self._log or self._decision is not None:
                yield "frame", self._frame(self._view)
            yield "result", _result_json(message.result)

    def _frame(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The events and decision gathered so far, on the board of `view` (an omniscient
        watcher's public view and every seat's, shown as one)."""
        assert self.steps is not None
        if "by_seat" in view:
            view = self.steps.renderer.omniscient(view["public"], view["by_seat"])
        self._view = view
        text = self.steps.text(self.step, view, self._log, self._decision, self._incidents)
        self._log, self._decision, self._incidents = [], None, []
        self.frames += 1
        return self.steps.frame(text, view)


def _result_json(result: Any) -> dict[str, Any]:
    """A Watch stream's result as a record's (`record_result`): placements and incidents,
    incident kinds by their record names."""
    data = _message_json(result)
    for incident in data.get("incidents", []):
        incident["kind"] = str(incident["kind"]).removeprefix("INCIDENT_KIND_").lower()
    return {"placements": data.get("placements", []), "incidents": data.get("incidents", [])}
