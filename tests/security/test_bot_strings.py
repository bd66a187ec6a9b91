"""Nothing a bot sends reaches the operator's terminal raw. A hostile bot puts terminal
escapes, BEL, CR, BS, a C1 control, a bidi override and rich markup in its name, version,
errors, echoed request ids and stderr (`bots/hostile_bot.py`); every human output of every
command shows them escaped, the name still recognisable, and none of it read as markup."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import runpy
import subprocess
import sys
import time
from pathlib import Path

import pytest
from e2e_helpers import RANDOM_BOT

from admiralty.referee.launcher import free_port
from admiralty.text import printable
from admiralty.tournament import Runner, Settings, Store, Tournament, plan_matches

HOSTILE_BOT = str(Path(__file__).parent / "bots" / "hostile_bot.py")
HOSTILE = runpy.run_path(HOSTILE_BOT)["HOSTILE"]

RAW = ("\x1b", "\x07", "\r", "\x08", "\x9b", "\u202e")
"""What must never reach a terminal from a bot (off a terminal rich adds no escape)."""
NAME = r"\x1b]0;ow"
"""How the bot's name starts when shown: escaped; a leaderboard keeps no more of it."""
DETAIL = "INTERNAL: " + printable(HOSTILE)
"""The end of the incident detail of the bot's first answer in a match."""
SHORT = ("--option", "round_cap=2")
"""Two rounds of Jamaica: the hostile bot is asked a few requests, two of them fail."""


def admiralty(*args: str, cwd: Path, token: str = "") -> subprocess.CompletedProcess:
    """The command, off a terminal and 160 columns wide (no name wrapped in a table), with
    `token` as ADMIRALTY_TOKEN if given."""
    env = {key: value for key, value in os.environ.items() if key != "ADMIRALTY_TOKEN"}
    env |= {"COLUMNS": "160"} | ({"ADMIRALTY_TOKEN": token} if token else {})
    return subprocess.run(
        [sys.executable, "-m", "admiralty.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
    )


def assert_shown_escaped(result: subprocess.CompletedProcess, *shown: str, code: int = 0) -> str:
    """Exit `code`, no raw control from the bot in stdout or stderr, each of `shown` in
    them; returns both."""
    text = result.stdout + result.stderr
    assert result.returncode == code, text
    assert [char for char in RAW if char in text] == [], text
    for fragment in shown:
        assert fragment in text, text
    return text


def test_printable_escapes_every_control_and_keeps_newlines_when_asked():
    assert printable(HOSTILE) == r"\x1b]0;owned\x07\x1b[2J\r\x08\x9b1m[/]\u202e"
    assert printable(printable(HOSTILE)) == printable(HOSTILE)
    assert printable("a\tb\nc\x7f\u2066") == r"a\tb\nc\x7f\u2066"
    assert printable("a\nb\r\n", lines=True) == "a\nb\\r\n"
    assert printable("Île «ok» ☠ 海賊") == "Île «ok» ☠ 海賊"


@pytest.fixture(scope="module")
def matches(tmp_path_factory) -> dict[str, subprocess.CompletedProcess | Path]:
    """One match played plainly, one watched; the watched one's record."""
    where = tmp_path_factory.mktemp("play")
    record = where / "watched.jsonl.gz"
    common = ("--bot", HOSTILE_BOT, "--bot", RANDOM_BOT, "--seed", "3", *SHORT)
    return {
        "play": admiralty(
            "play", "jamaica", *common, "--record", str(where / "p.jsonl.gz"), cwd=where
        ),
        "watch": admiralty(
            "play",
            "jamaica",
            *common,
            "--record",
            str(record),
            "--watch",
            "--delay",
            "0",
            cwd=where,
        ),
        "record": record,
    }


@pytest.mark.xdist_group("bot-strings-play")
def test_play_shows_the_name_and_the_incidents_escaped(matches):
    assert_shown_escaped(matches["play"], printable(HOSTILE), DETAIL, f"answered request '{NAME}")


@pytest.mark.xdist_group("bot-strings-play")
def test_play_watch_shows_the_name_and_the_incidents_escaped(matches):
    assert_shown_escaped(matches["watch"], NAME, DETAIL)


@pytest.mark.xdist_group("bot-strings-play")
def test_replay_shows_the_name_and_the_incidents_escaped(matches, tmp_path):
    replayed = admiralty("replay", str(matches["record"]), "--speed", "0", cwd=tmp_path)
    assert_shown_escaped(replayed, NAME, DETAIL)


@pytest.mark.xdist_group("bot-strings-play")
def test_a_record_of_raw_strings_is_replayed_escaped(matches, tmp_path):
    """A record an older admiralty wrote holds the bot's strings as the bot sent them: the
    screen escapes them itself, in the log, the seat's panel and the result."""
    raw = tmp_path / "raw.jsonl.gz"
    with gzip.open(matches["record"], "rt") as lines, gzip.open(raw, "wt") as out:
        out.writelines(
            line.replace(json.dumps(printable(HOSTILE))[1:-1], json.dumps(HOSTILE)[1:-1])
            for line in lines
        )
    with gzip.open(raw, "rt") as lines:
        assert json.loads(next(lines))["seats"][0] == HOSTILE
    replayed = admiralty("replay", str(raw), "--speed", "0", "--seat", "0", cwd=tmp_path)
    assert_shown_escaped(replayed, NAME, DETAIL)


def test_a_bot_failing_at_start_shows_its_stderr_escaped_line_by_line(tmp_path):
    result = admiralty(
        "play", "jamaica", "--bot", f"{HOSTILE_BOT} --die", "--bot", RANDOM_BOT, cwd=tmp_path
    )
    text = assert_shown_escaped(result, "exited with code 3", code=1)
    assert f"starting {printable(HOSTILE)}\nmodel {printable(HOSTILE)} not found" in text


def test_check_bot_shows_the_name_version_and_details_escaped(tmp_path):
    result = admiralty("check-bot", HOSTILE_BOT, "--matches", "1", "--seed", "1", cwd=tmp_path)
    assert_shown_escaped(result, NAME, f"1{printable(HOSTILE)}", "INTERNAL: " + NAME, code=1)


@pytest.fixture(scope="module")
def tournament(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """A tournament of the hostile bot and the random bot: its database, and its run."""
    where = tmp_path_factory.mktemp("tournament")
    run = admiralty(
        "tournament",
        "run",
        "jamaica",
        "--bot",
        HOSTILE_BOT,
        "--bot",
        RANDOM_BOT,
        "--name",
        "cup",
        "--seed",
        "1",
        "--parallel",
        "1",
        *SHORT,
        "--db",
        str(where / "t.db"),
        "--records",
        str(where / "records"),
        cwd=where,
    )
    return where, run


@pytest.mark.xdist_group("bot-strings-tournament")
def test_tournament_run_shows_the_leaderboard_escaped(tournament):
    assert_shown_escaped(tournament[1], NAME)


@pytest.mark.xdist_group("bot-strings-tournament")
def test_tournament_show_and_its_views_show_the_name_escaped(tournament):
    where, _ = tournament
    shown = admiralty(
        "tournament",
        "show",
        "cup",
        "--db",
        str(where / "t.db"),
        "--matches",
        "--head-to-head",
        "--history",
        "--seats",
        cwd=where,
    )
    assert_shown_escaped(
        shown,
        NAME,
        f"{printable(HOSTILE)} illegal",
        f"{printable(HOSTILE)}  2 games",
        "win share by seat",
    )


@pytest.mark.xdist_group("bot-strings-tournament")
def test_tournament_show_json_is_valid_and_holds_the_escaped_name(tournament):
    where, _ = tournament
    shown = admiralty("tournament", "show", "cup", "--db", str(where / "t.db"), "--json", cwd=where)
    assert_shown_escaped(shown)
    bots = {row["bot"] for row in json.loads(shown.stdout)["standings"]}
    assert bots == {printable(HOSTILE), "random"}


def test_a_raw_name_stored_by_an_older_admiralty_is_shown_escaped(tmp_path):
    """Names were stored as bots sent them before the referee escaped them at Hello.
    `tournament list` shows no bot's string (it counts the bots) and stays clean."""
    store = Store(tmp_path / "t.db", create=True)
    runner = Runner(1, "elsewhere", "2030-01-01T10:00:00+00:00")
    store.create(
        Tournament(
            "old",
            "jamaica",
            2,
            1,
            5,
            Settings(records=None).to_json(),
            ("a.py", "b.py"),
            (HOSTILE, "b"),
        ),
        plan_matches("old", 2, 2, 1, 5),
        runner,
    )
    store.release_lease("old", runner)
    shown = admiralty(
        "tournament",
        "show",
        "old",
        "--db",
        str(tmp_path / "t.db"),
        "--matches",
        "--head-to-head",
        cwd=tmp_path,
    )
    assert_shown_escaped(shown, NAME, f"not played: {printable(HOSTILE)}, b")
    listed = admiralty("tournament", "list", "--db", str(tmp_path / "t.db"), cwd=tmp_path)
    assert_shown_escaped(listed, "old")


@contextlib.contextmanager
def running(*argv: str, cwd: Path):
    process = subprocess.Popen(
        list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd
    )
    try:
        yield process
    finally:
        process.terminate()
        process.communicate(timeout=30)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A referee (`admiralty serve`) that has played one match of the hostile bot; yields
    a function running a command against it (with its admin token) and the match's id."""
    where = tmp_path_factory.mktemp("served")
    port, bots = free_port(), [free_port(), free_port()]
    server = f"127.0.0.1:{port}"
    with (
        running(
            sys.executable,
            "-m",
            "admiralty.cli",
            "serve",
            "--port",
            str(port),
            "--records",
            str(where),
            cwd=where,
        ) as referee,
        running(sys.executable, HOSTILE_BOT, "--port", str(bots[0]), cwd=where),
        running(sys.executable, RANDOM_BOT, "--port", str(bots[1]), cwd=where),
    ):
        assert "listening" in referee.stdout.readline()
        token = referee.stdout.readline().split("admin token:")[1].strip()

        def call(*args: str) -> subprocess.CompletedProcess:
            return admiralty(*args, "--server", server, cwd=where, token=token)

        created = call(
            "match",
            "create",
            "jamaica",
            "--bot",
            f"127.0.0.1:{bots[0]}",
            "--bot",
            f"127.0.0.1:{bots[1]}",
            "--seed",
            "5",
            *SHORT,
            "--json",
        )
        assert created.returncode == 0, created.stderr
        match_id = json.loads(created.stdout)["match_id"]
        deadline = time.monotonic() + 60
        while (
            json.loads(call("match", "show", match_id, "--json").stdout)["status"]
            not in ("finished", "failed")
            and time.monotonic() < deadline
        ):
            time.sleep(0.2)
        yield call, match_id


@pytest.mark.xdist_group("bot-strings-served")
def test_match_list_shows_the_name_escaped(served):
    call, match_id = served
    assert_shown_escaped(call("match", "list"), match_id, NAME)


@pytest.mark.xdist_group("bot-strings-served")
def test_match_show_shows_the_name_and_the_incidents_escaped(served):
    call, match_id = served
    assert_shown_escaped(call("match", "show", match_id), "status: finished", NAME, DETAIL)


@pytest.mark.xdist_group("bot-strings-served")
@pytest.mark.parametrize("seat", [[], ["--seat", "0"]], ids=["every-seat", "seat"])
def test_watch_shows_the_name_and_the_incidents_escaped(served, seat):
    call, match_id = served
    assert_shown_escaped(call("watch", match_id, *seat), NAME, DETAIL)
