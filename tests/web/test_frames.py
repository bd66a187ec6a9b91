"""The viewer's frames (admiralty.web.frames): one JSON shape for every source, built from
the engine's redaction doors only, so a spectator's frames of twin matches that differ only
in hidden cards are the same, and a seat's frames carry only its own decisions."""

from __future__ import annotations

import asyncio
import json

import pytest
from e2e_helpers import ScriptedBot, play
from twins import Twins, _window, twin_states

from admiralty.console.screen import renderer_for, seat_names
from admiralty.games import GameState
from admiralty.referee.record import read_record
from admiralty.referee.timeline import Timeline, read_timeline, replay_frames
from admiralty.web.boards import board_svg
from admiralty.web.export import replay_page
from admiralty.web.frames import Replay, replay

FRAME_KEYS = ["step", "round", "svg", "log", "decision", "incidents"]
DECISION_KEYS = {"seat", "kind", "prompt", "options", "chosen", "latency_ms", "how", "asked"}
NAMES = ["red", "blue", "green", "gold", "white"]


@pytest.fixture(scope="module")
def incident_record(tmp_path_factory):
    """A Jamaica match whose second seat answers its third request with no such option."""
    asked = [0]

    def wrong_third(request) -> int:
        asked[0] += 1
        return 99 if asked[0] == 3 else len(request.options) - 1

    path = tmp_path_factory.mktemp("frames") / "m.jsonl.gz"
    bots = [ScriptedBot("first", lambda request: 0), ScriptedBot("wrong", wrong_third)]
    asyncio.run(play(bots, seed=5, record_path=path, options={"round_cap": 3}))
    return path


def test_a_frame_is_the_step_its_round_board_log_decision_and_incidents(web_data):
    path = web_data.records / web_data.tournament / f"{web_data.match_ids[0]}.jsonl.gz"
    shown, timeline = replay(path, None), read_timeline(path, None)
    renderer, names = renderer_for(web_data.game), seat_names(timeline.seats)
    decisions = [line for line in read_record(path) if line["t"] == "decision"]
    assert len(shown) == len(decisions) + 1
    for index in (0, 1, len(shown) // 2, len(shown) - 1):
        frame, source = shown.frame(index), timeline.frames[index]
        assert list(frame) == FRAME_KEYS
        assert frame["step"] == source.step == index
        assert frame["round"] == source.view[renderer.ROUND_KEY]
        assert frame["svg"] == board_svg(web_data.game, source.view, timeline.seats)
        described = [renderer.describe(event, names) for event in source.events]
        assert frame["log"] == [
            line if isinstance(line, str) else line.plain for line in described if line
        ]
        assert frame["decision"] is None  # a spectator is asked nothing
        json.dumps(frame)  # plain JSON throughout
    assert shown.frames(1, 3) == [shown.frame(i) for i in (1, 2, 3)]
    assert shown.frames(len(shown) - 1, 50) == [shown.frame(len(shown) - 1)]


def test_the_header_indexes_rounds_incidents_and_decisions(incident_record):
    public, seat = replay(incident_record, None), replay(incident_record, 1)
    header = public.header()
    rounds = [text["round"] for text in public.texts]
    assert header["frames"] == len(public)
    assert header["rounds"] == {r: rounds.index(r) for r in sorted(set(rounds))}
    assert header["seats"] == ["first", "wrong"] and header["viewer"] is None
    assert header["result"]["placements"][1]["bot"] == "wrong"
    (incident,) = header["result"]["incidents"]
    (step,) = header["incident_steps"]
    assert public.texts[step]["incidents"] == [incident]
    assert header["decision_steps"] == []
    asked = seat.header()["decision_steps"]
    assert asked and all(seat.texts[i]["decision"]["asked"] for i in asked)
    assert seat.texts[step]["decision"]["how"] == "incident"
    assert "match" in header["title"] and "seed" not in header["title"]


def test_a_seats_frames_carry_its_own_decisions_and_incidents_only(incident_record):
    for viewer in (0, 1):
        texts = replay(incident_record, viewer).texts
        decisions = [text["decision"] for text in texts if text["decision"] is not None]
        assert decisions and {d["seat"] for d in decisions} == {viewer}
        assert set(decisions[0]) == DECISION_KEYS
        chosen = decisions[0]["options"][decisions[0]["chosen"]]
        assert len(chosen) == 2 and all(isinstance(part, str) for part in chosen)
        incidents = [i for text in texts for i in text["incidents"]]
        assert {i["seat"] for i in incidents} <= {viewer}
        assert bool(incidents) == (viewer == 1)


def referee_lines(state: GameState, twins: Twins, steps: int) -> list[dict]:
    """The decision lines a referee would record driving `state` with the twins' rule."""
    lines: list[dict] = []
    while len(lines) < steps and state.outcome() is None:
        batch = _window(state.pending())
        answers = [(request.seat, twins.choose(state, request)) for request in batch]
        for seat, index in answers:
            state.apply(seat, index)
            lines.append({"seat": seat, "index": index, "latency_ms": 5.0, "how": "bot"})
    return lines[:steps]


def frames_of(twins: Twins, state: GameState, lines: list[dict], viewer) -> Replay:
    seats = NAMES[: state.players]
    frames = list(replay_frames(state.clone(), lines, viewer))
    return Replay(Timeline(twins.game, seats, viewer, frames, match_id="twin"))


@pytest.mark.parametrize("game", ["jamaica", "black_fleet", "blackbeard"])
def test_twin_matches_that_differ_only_in_hidden_cards_give_the_same_frames(game):
    """The spectator's frames (boards, log, everything) and the observing seat's, and the
    exported pages holding them, are the same in both twins up to the horizon, byte for
    byte: nothing hidden reaches them."""
    twins = twin_states(game, 1)[0]
    steps = min(twins.horizon(40), 40)
    assert steps >= 5 and twins.a.digest() != twins.b.digest()
    lines = referee_lines(twins.a.clone(), twins, steps)
    assert referee_lines(twins.b.clone(), twins, steps) == lines
    for viewer in (None, twins.observer):
        a, b = frames_of(twins, twins.a, lines, viewer), frames_of(twins, twins.b, lines, viewer)
        assert len(a) == steps + 1
        assert a.frames(0, len(a)) == b.frames(0, len(b))
        assert a.header() == b.header()
        assert replay_page(a).encode() == replay_page(b).encode()
    seat = frames_of(twins, twins.a, lines, twins.observer)
    assert any(text["decision"] for text in seat.texts)
    assert {text["decision"]["seat"] for text in seat.texts if text["decision"]} == {twins.observer}
