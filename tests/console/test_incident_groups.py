"""A bot that fails every third decision makes about seventy incidents in a Blackbeard
solitaire: the final screen and the table after `play` group them by seat and kind (count,
first and last step, the first detail and the last), so the result stays on an 80x24 screen; the
transcript, like --json and the record, keeps every one."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_helpers import REPO, TEST_BOTS
from rich.console import Console
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.console.feeds import replay_screen
from admiralty.console.screen import MatchScreen, solo_verdict
from admiralty.referee.record import read_record


@pytest.fixture(scope="module")
def flaky(tmp_path_factory) -> tuple[Path, str]:
    """A solitaire of the flaky bot (a real process): its record and what `play` printed."""
    record = tmp_path_factory.mktemp("flaky") / "m.jsonl.gz"
    played = subprocess.run(
        [
            sys.executable,
            "-m",
            "admiralty.cli",
            "play",
            "blackbeard",
            "--players",
            "1",
            "--bot",
            str(TEST_BOTS / "flaky_bot.py"),
            "--seed",
            "6",
            "--record",
            str(record),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert played.returncode == 0, played.stderr
    return record, played.stdout


def expected_rows(record: Path) -> tuple[str, list[list[str]], int]:
    """From the record alone: the verdict, each kind's row (seat, kind, count, first-last
    step, the first detail and, if it differs, the last) and how many incidents there are."""
    lines = list(read_record(record))
    result = next(line for line in lines if line["t"] == "result")
    step = {line["request_id"]: line["step"] for line in lines if line["t"] == "decision"}
    rows = []
    for kind in dict.fromkeys(incident["kind"] for incident in result["incidents"]):
        of_kind = [incident for incident in result["incidents"] if incident["kind"] == kind]
        steps = [step[incident["request_id"]] for incident in of_kind]
        first, last = of_kind[0]["detail"], of_kind[-1]["detail"]
        detail = first if first == last else f"{first} last: {last}"
        rows.append(["0", kind, str(len(of_kind)), f"{min(steps)}-{max(steps)}", *detail.split()])
    verdict = solo_verdict("blackbeard", {"score": result["scores"][0], "forfeited": False})
    return verdict, rows, len(result["incidents"])


def shows_row(text: str, row: list[str]) -> bool:
    """Whether `row`'s cells appear in order in `text`: a row whose detail wraps continues
    on lines whose other cells are blank, so its words run on in the text's words."""
    words = text.replace("│", " ").split()
    return any(words[at : at + len(row)] == row for at in range(len(words)))


def test_the_final_screen_at_80x24_keeps_the_result_and_groups_the_incidents(flaky):
    record, _ = flaky
    verdict, rows, count = expected_rows(record)
    assert count > 24 and len(rows) == 2  # illegal and stale, too few to retire the bot
    console = Console(width=80, height=24, file=io.StringIO(), color_system=None)
    console.print(replay_screen(record, None))
    shown = console.file.getvalue()
    assert len(shown.splitlines()) <= 24
    assert verdict in shown
    for row in rows:
        assert shows_row(shown, row)
    assert "Game over" in shown.split("╭─ log")[1]


def test_the_table_after_play_groups_them_and_the_transcript_keeps_each(flaky):
    record, printed = flaky
    verdict, rows, count = expected_rows(record)
    assert verdict in printed
    for row in rows:
        assert shows_row(printed, row)
    assert len(printed.splitlines()) < 20
    transcript = CliRunner().invoke(app, ["replay", str(record), "--speed", "0"]).output
    assert transcript.count("⚠ step ") == count
    assert all(shows_row(transcript, row) for row in rows)


def test_incidents_the_viewer_was_not_told_are_listed_in_the_transcript():
    """A seat's eye view logs only its own incidents; the others are in the result, which
    a transcript lists in full under the grouped table."""
    screen = MatchScreen("jamaica", {}, ["a", "b"], viewer=0)
    told = {"request_id": "3", "seat": 0, "kind": "timeout", "detail": "no answer in 2 s"}
    untold = {"request_id": "5", "seat": 1, "kind": "illegal", "detail": "option 9 of 2"}
    screen.step = 12
    screen.decide(None, [told])
    screen.finish(
        {
            "placements": [
                {"seat": 0, "bot": "a", "place": 1, "score": 3},
                {"seat": 1, "bot": "b", "place": 2, "score": 1},
            ],
            "incidents": [told, untold],
        }
    )
    console = Console(width=100, file=io.StringIO(), color_system=None)
    console.print(screen.transcript())
    text = console.file.getvalue()
    assert "⚠ step 12, round 0: a timeout: no answer in 2 s" in text
    assert "⚠ in the result: b illegal: option 9 of 2" in text
    assert shows_row(text, ["0", "timeout", "1", "12", "no", "answer", "in", "2", "s"])
    assert shows_row(text, ["1", "illegal", "1", "-", "option", "9", "of", "2"])
