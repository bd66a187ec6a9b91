"""A match as one viewer saw it, step by step: the frames a screen shows.

A viewer is a seat or the public (None). Frames are built from the engine's two redaction
doors only, `state.view(viewer)` and `Event.visible_to(viewer)`, so a seat's frames hold
what that seat was told and nothing else; its own requests are the ones the referee sent
it. A record is re-run through the engine (as `replay --verify` does) to re-derive them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from admiralty.games import Event, GameState, Request, Viewer, load_game
from admiralty.referee.record import read_record


class NoSuchSeat(ValueError):
    """A seat the match does not have."""


@dataclass(frozen=True)
class Decision:
    """A request as its seat got it, and the option the referee applied for it."""

    step: int
    seat: int
    kind: str
    prompt: str
    options: tuple[tuple[str, str], ...]
    """Each option's key and label, in index order."""
    chosen: int
    latency_ms: float = 0.0
    how: str = "bot"
    """bot (the bot answered), forced (a single option), auto_pass, forfeited or incident:
    only `bot` and `incident` mean the seat was asked."""

    @property
    def asked(self) -> bool:
        return self.how in ("bot", "incident")


@dataclass(frozen=True)
class Frame:
    """One step as the viewer saw it: the events it was told, its view after them, its
    own decision at this step, and the incidents it may know of (with the step)."""

    step: int
    events: tuple[dict[str, Any], ...]
    view: Mapping[str, Any]
    decision: Decision | None = None
    incidents: tuple[Mapping[str, Any], ...] = ()


@dataclass
class Timeline:
    """A recorded match as frames, with what the screen needs around them."""

    game: str
    seats: list[str]
    viewer: Viewer
    frames: list[Frame] = field(default_factory=list)
    result: dict[str, Any] | None = None
    ending: str = "header"
    """How the record ends: result, aborted, truncated, or header (cut before anything)."""
    seed: int | None = None
    match_id: str = ""


def event_json(event: Event) -> dict[str, Any]:
    """An event as a screen takes it: kind and data, without its audience."""
    return {"kind": event.kind, "data": dict(event.data)}


def decision_of(
    step: int, request: Request, index: int, latency_ms: float = 0.0, how: str = "bot"
) -> Decision:
    return Decision(
        step,
        request.seat,
        request.kind,
        request.prompt,
        tuple((option.key, option.label) for option in request.options),
        index,
        latency_ms,
        how,
    )


def frame_after(
    step: int,
    events: Sequence[Event],
    state: GameState,
    viewer: Viewer,
    decision: Decision | None = None,
    incidents: Iterable[Mapping[str, Any]] = (),
) -> Frame:
    """The frame of one applied step: only the viewer's own decision and incidents."""
    mine = decision if decision is not None and decision.seat == viewer else None
    told = tuple(i for i in incidents if viewer is None or i["seat"] == viewer)
    return Frame(
        step,
        tuple(event_json(e) for e in events if e.visible_to(viewer)),
        state.view(viewer),
        mine,
        told,
    )


def replay_frames(
    state: GameState,
    decisions: Iterable[Mapping[str, Any]],
    viewer: Viewer,
    incidents: Mapping[tuple[int, str], list[Mapping[str, Any]]] | None = None,
) -> Iterator[Frame]:
    """Re-run `decisions` (record lines: seat, index, and optionally latency_ms, how,
    request_id) from `state`; IllegalAction where one does not fit."""
    incidents = incidents or {}
    yield frame_after(0, state.setup_events, state, viewer, incidents=incidents.get((-1, ""), ()))
    for step, line in enumerate(decisions, 1):
        yield step_frame(
            state, step, line, viewer, incidents.get((line["seat"], line.get("request_id", "")), ())
        )


def step_frame(
    state: GameState,
    step: int,
    line: Mapping[str, Any],
    viewer: Viewer,
    incidents: Iterable[Mapping[str, Any]] = (),
) -> Frame:
    """Apply one decision line to `state` (the request re-derived from it) and return the
    frame `viewer` saw of it."""
    request = state.request_for(line["seat"])
    decision = decision_of(
        step, request, line["index"], line.get("latency_ms", 0.0), line.get("how", "bot")
    )
    events = state.apply(line["seat"], line["index"])
    return frame_after(step, events, state, viewer, decision, incidents)


def read_timeline(path: Path, viewer: Viewer) -> Timeline:
    """The whole record as `viewer`'s frames; a record cut short gives the frames up to
    its cut and says how it ends."""
    lines = list(read_record(path))
    header = lines[0]
    if viewer is not None and not 0 <= viewer < header["players"]:
        raise NoSuchSeat(f"--seat {viewer}: the match has seats 0 to {header['players'] - 1}")
    timeline = Timeline(
        header["game"], header["seats"], viewer, seed=header["seed"], match_id=header["match_id"]
    )
    for line in lines:
        if line["t"] in ("result", "aborted", "truncated"):
            timeline.ending = line["t"]
            timeline.result = line if line["t"] == "result" else None
    incidents = _incidents_by_request(timeline.result["incidents"] if timeline.result else [])
    state = load_game(header["game"]).new_game(header["players"], header["seed"], header["options"])
    decisions = (line for line in lines if line["t"] == "decision")
    timeline.frames = list(replay_frames(state, decisions, viewer, incidents))
    return timeline


def _incidents_by_request(
    incidents: Iterable[Mapping[str, Any]],
) -> dict[tuple[int, str], list[Mapping[str, Any]]]:
    """Incidents by the (seat, request id) they answer; a seat retired before it was ever
    asked (request id "") is told at the setup, under (-1, "")."""
    found: dict[tuple[int, str], list[Mapping[str, Any]]] = {}
    for incident in incidents:
        key = (incident["seat"], incident["request_id"]) if incident["request_id"] else (-1, "")
        found.setdefault(key, []).append(incident)
    return found


def request_steps(path: Path) -> dict[tuple[int, str], int]:
    """The step each request of a record (by seat and request id) was applied at: where the
    incidents of its answer happened."""
    return {
        (line["seat"], line["request_id"]): line["step"]
        for line in read_record(path)
        if line["t"] == "decision"
    }


def record_result(result: Mapping[str, Any], seats: Sequence[str]) -> dict[str, Any]:
    """A record's result line as the screen's result: placements and incidents."""
    return {
        "placements": [
            {
                "seat": seat,
                "bot": name,
                "place": place,
                "score": score,
                "forfeited": seat in result["forfeited"],
            }
            for seat, (name, place, score) in enumerate(
                zip(seats, result["places"], result["scores"], strict=True)
            )
        ],
        "incidents": list(result["incidents"]),
    }
