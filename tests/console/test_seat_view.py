"""A seat's eye view: what a seat saw of a match, and nothing more.

Its requests are re-derived by re-running the record through the engine, its cards come
from its own view, and two twin matches that differ only in what it cannot see give the
same screen and the same transcript, frame by frame.
"""

from __future__ import annotations

import asyncio
import io

import pytest
from e2e_helpers import ScriptedBot, play
from rich.console import Console
from twins import Twins, twin_states
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.console.screen import MatchScreen
from admiralty.games import GameState, Window, load_game
from admiralty.referee.record import read_record
from admiralty.referee.timeline import Frame, read_timeline, replay_frames

NAMES = ["red", "blue", "green", "gold", "white"]


def referee_decisions(state: GameState, twins: Twins, steps: int) -> list[dict]:
    """The decisions the referee would apply, a SEALED window wholly chosen first."""
    lines: list[dict] = []
    while len(lines) < steps and state.outcome() is None:
        pending = state.pending()
        batch = (
            [r for r in pending if r.window_id == pending[0].window_id]
            if pending[0].window is Window.SEALED
            else pending[:1]
        )
        answers = [(r.seat, twins.choose(state, r)) for r in batch]
        for seat, index in answers:
            state.apply(seat, index)
            lines.append({"seat": seat, "index": index, "latency_ms": 7.0, "how": "bot"})
    return lines[:steps]


def seen_by(twins: Twins, state: GameState, lines: list[dict]) -> tuple[list[Frame], str]:
    """Every frame the seat's screen is given (the screen is a function of them), then its
    last screen at 120x60 and its transcript, as text."""
    game = load_game(twins.game)
    screen = MatchScreen(
        twins.game, game.static_info(), NAMES[: state.players], viewer=twins.observer, legend=True
    )
    frames = list(replay_frames(state, lines, twins.observer))
    for frame in frames:
        screen.show(frame)
    return frames, render(screen, 120, 60) + render(screen.transcript(), 120, 10_000)


def render(renderable, width: int, height: int) -> str:
    console = Console(width=width, height=height, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.file.getvalue()


@pytest.mark.parametrize("game", ["jamaica", "black_fleet", "blackbeard"])
def test_twin_matches_that_differ_only_in_hidden_cards_look_the_same_to_the_seat(game):
    twins = twin_states(game, 1)[0]
    steps = min(twins.horizon(60), 60)
    assert steps >= 5 and twins.a.digest() != twins.b.digest()
    lines = referee_decisions(twins.a.clone(), twins, steps)
    assert referee_decisions(twins.b.clone(), twins, steps) == lines
    frames_a, shown_a = seen_by(twins, twins.a.clone(), lines)
    frames_b, shown_b = seen_by(twins, twins.b.clone(), lines)
    assert len(frames_a) == steps + 1
    assert frames_a == frames_b
    assert shown_a == shown_b
    assert "seat's eye: " + NAMES[twins.observer] in shown_a
    asked = [f.decision for f in frames_a if f.decision is not None and f.decision.asked]
    assert asked and all(d.seat == twins.observer for d in asked)


def illegal_third_answer(name: str):
    """A bot that answers its third request with an option that does not exist."""
    asked = [0]

    def choose(request) -> int:
        asked[0] += 1
        return 99 if asked[0] == 3 else len(request.options) - 1

    return ScriptedBot(name, choose)


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("seat") / "m.jsonl.gz"
    bots = [ScriptedBot("first", lambda request: 0), illegal_third_answer("wrong")]
    asyncio.run(play(bots, seed=5, record_path=path))
    return path


def test_replay_seat_lists_each_request_it_was_asked_with_its_options_and_answer(record):
    lines = list(read_record(record))
    timeline = read_timeline(record, 1)
    asked = [
        frame.decision
        for frame in timeline.frames
        if frame.decision is not None and frame.decision.asked
    ]
    recorded = [
        line
        for line in lines
        if line["t"] == "decision" and line["seat"] == 1 and line["how"] in ("bot", "incident")
    ]
    assert [(d.kind, d.chosen) for d in asked] == [
        (line["kind"], line["index"]) for line in recorded
    ]
    result = CliRunner().invoke(app, ["replay", str(record), "--seat", "1"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.endswith("\n") and "\n│     1 │" in out
    for decision in asked:
        key, label = decision.options[decision.chosen]
        assert f"▶ wrong · {decision.kind}: {key} “{label}”" in out
    first = asked[0]
    block = out.split(f"▶ wrong · {first.kind}:", 1)[1].splitlines()[1 : 2 + len(first.options)]
    assert block[0].strip() == first.prompt
    assert [row.strip().lstrip("▶ ") for row in block[1:]] == [
        f"{i}. {key} — {label}" for i, (key, label) in enumerate(first.options)
    ]
    assert "▶ first ·" not in out  # the other seat's requests are not this seat's to see


def test_an_incident_is_logged_when_it_happened_with_its_step_and_round(record):
    timeline = read_timeline(record, None)
    at = next(i for i, f in enumerate(timeline.frames) if f.incidents)
    frame, asked_in = timeline.frames[at], timeline.frames[at - 1].view["round"]
    (incident,) = frame.incidents
    assert incident["kind"] == "illegal" and incident["seat"] == 1
    result = CliRunner().invoke(app, ["replay", str(record)])
    line = next(line for line in result.output.splitlines() if line.startswith("⚠"))
    assert line == (f"⚠ step {frame.step}, round {asked_in}: wrong illegal: {incident['detail']}")
    seat_view = CliRunner().invoke(app, ["replay", str(record), "--seat", "0"]).output
    assert "⚠" not in seat_view.split("final")[0]  # seat 0 is not told seat 1's incidents


def test_a_seat_the_match_does_not_have_is_one_usage_line(record):
    result = CliRunner().invoke(app, ["replay", str(record), "--seat", "2"])
    assert result.exit_code == 2
    assert result.output == "error: --seat 2: the match has seats 0 to 1\n"


def test_the_seat_panel_shows_the_request_its_options_and_the_incident_of_its_answer(record):
    timeline = read_timeline(record, 1)
    at = next(i for i, f in enumerate(timeline.frames) if f.incidents)
    screen = MatchScreen("jamaica", load_game("jamaica").static_info(), timeline.seats, 1)
    for frame in timeline.frames[: at + 1]:
        screen.show(frame)
    panel = render(screen, 120, 60)
    decision, (incident,) = timeline.frames[at].decision, timeline.frames[at].incidents
    assert decision.how == "incident" and decision.seat == 1
    assert f"step {decision.step} · {decision.kind}" in panel
    assert "no valid answer: the referee applied ▶" in panel
    assert f"⚠ illegal: {incident['detail']}" in panel
    key, label = decision.options[decision.chosen]
    assert f"▶ {decision.chosen}. {key} — {label.split()[0]}" in panel
    hand = timeline.frames[at].view["players"][1]["hand"]
    assert panel.count("hand: ") == 1 and len(hand) == panel.split("hand: ")[1].split("│")[0].count(
        "/"
    )
    following = next(
        i for i in range(at + 1, len(timeline.frames)) if timeline.frames[i].decision is not None
    )
    for frame in timeline.frames[at + 1 : following + 1]:
        screen.show(frame)
    assert "⚠ illegal" not in render(screen, 120, 60).split("╭─ log")[0]  # a new request
