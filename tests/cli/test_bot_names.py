"""A bot entered twice is named one way wherever it is shown: the first entrant by its name,
the second as `name #2`, in the result of `play`, the replay's screen and transcript, the
export's title, `match list` and `tournament show`."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.console.served_matches import matches_list_table
from admiralty.tournament import PlannedMatch, Result, Runner, Store, Tournament

RANDOM_BOT = str(Path(__file__).resolve().parents[2] / "example_bots" / "random_bot.py")
OTHER_FORMS = re.compile(r"random ?[·#]\d")
"""Other ways of numbering an entrant: `random·1`, `random#1`, `random #1`."""


def admiralty(*args: str):
    result = CliRunner().invoke(app, list(args), terminal_width=80)
    assert result.exit_code == 0, result.output
    return result.stdout


def assert_named_one_way(text: str) -> None:
    assert "random #2" in text
    assert not OTHER_FORMS.search(text.replace("random #2", "")), text


def test_play_replay_and_export_name_the_second_random_bot_random_2(tmp_path):
    record, page = tmp_path / "m.jsonl.gz", tmp_path / "m.html"
    played = admiralty(
        "play",
        "jamaica",
        "--local",
        "--bot",
        RANDOM_BOT,
        "--bot",
        RANDOM_BOT,
        "-o",
        "round_cap=2",
        "--seed",
        "3",
        "--record",
        str(record),
    )
    assert_named_one_way(played)
    assert_named_one_way(admiralty("replay", str(record)))  # the transcript, off a terminal
    admiralty("replay", str(record), "--export", str(page))
    title = re.findall(r"<title>(.*?)</title>", page.read_text())[0]  # the page's, in <head>
    assert title.startswith("jamaica · random, random #2 · seed 3 · match ")


def test_match_list_names_them_so_too():
    summaries = [
        {
            "match_id": "jamaica-0123456789abcdef",
            "status": "finished",
            "steps": 40,
            "bot_names": ["random", "random"],
        }
    ]
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(matches_list_table(summaries))
    assert_named_one_way(console.file.getvalue())


def test_tournament_show_names_them_so_too(tmp_path):
    store = Store(tmp_path / "t.db", create=True)
    plan = [PlannedMatch(f"cup-r1-s{s}", s, 1, 7, (s, 1 - s)) for s in (0, 1)]
    store.create(
        Tournament(
            "cup",
            "jamaica",
            2,
            1,
            7,
            {"rating": "trueskill", "deals": "fresh", "records": None},
            ("a.py", "a.py --seed 1"),
            ("random", "random"),
        ),
        plan,
        Runner(1, "host", "2030-01-01T10:00:00+00:00"),
    )
    for match in plan:
        store.save_result(
            "cup", Result(match.match_id, [1, 2], [9, 4], [], [], [[1.0], [1.0]], 12, None)
        )
    shown = admiralty("tournament", "show", "cup", "--db", str(tmp_path / "t.db"), "--matches")
    assert_named_one_way(shown)
