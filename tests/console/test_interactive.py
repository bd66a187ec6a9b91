"""The interactive replay: keys to commands, commands to frames, and once through a pty:
no echo, the terminal restored, q and Ctrl-D quit cleanly."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import select
import subprocess
import sys
import termios

import pytest
from e2e_helpers import ScriptedBot, play

from admiralty.console.feeds import LocalFeed, Pacer
from admiralty.console.interactive import KEYS_HELP, Command, Keys, Player
from admiralty.console.screen import MatchScreen
from admiralty.games import load_game
from admiralty.referee.match import Answer
from admiralty.referee.timeline import read_timeline


def test_keys_become_commands():
    keys = Keys()
    typed = [keys.feed(key) for key in " np\x1b[C\x1b[Ddilq\x04x"]
    assert [c for c in typed if c is not None] == [
        Command("pause"),
        Command("next"),
        Command("back"),
        Command("next"),
        Command("back"),
        Command("decision"),
        Command("incident"),
        Command("legend"),
        Command("quit"),
        Command("quit"),
    ]


def test_a_number_after_g_or_s_ends_with_enter_and_anything_else_cancels_it():
    keys = Keys()
    assert [keys.feed(key) for key in "g12"] == [None, None, None]
    assert (keys.numbered, keys.typing) == ("round", "12")
    assert keys.feed("\r") == Command("round", 12)
    assert [keys.feed(key) for key in "s4\n"][-1] == Command("step", 4)
    assert [keys.feed(key) for key in "g4x"] == [None, None, None]
    assert keys.feed("n") == Command("next")


def wrong_on_third(name: str) -> ScriptedBot:
    asked = [0]

    def choose(request) -> int:
        asked[0] += 1
        return 99 if asked[0] == 3 else 0

    return ScriptedBot(name, choose)


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("interactive") / "m.jsonl.gz"
    asyncio.run(
        play([ScriptedBot("a", lambda r: 0), wrong_on_third("b")], seed=3, record_path=path)
    )
    return path


def test_the_player_steps_jumps_and_finds_decisions_and_incidents(record):
    timeline = read_timeline(record, 1)
    player = Player(timeline)
    assert player.apply(Command("next")) and player.position == 1
    player.apply(Command("back"))
    player.apply(Command("back"))
    assert player.position == 0
    player.apply(Command("decision"))
    first = next(
        i for i, f in enumerate(timeline.frames) if f.decision is not None and f.decision.asked
    )
    assert player.position == first and player.screen.decision == timeline.frames[first].decision
    player.apply(Command("incident"))
    assert timeline.frames[player.position].incidents
    assert player.screen.log[-1].plain.startswith("⚠") or any(
        line.plain.startswith("⚠") for line in player.screen.log
    )
    player.apply(Command("round", 3))
    assert player.screen.round == 3 and timeline.frames[player.position - 1].view["round"] == 2
    player.apply(Command("step", 10_000))
    assert player.position == player.last and player.screen.result is not None
    player.apply(Command("step", 0))
    assert player.position == 0 and len(player.screen.log) < 5
    assert not player.apply(Command("quit"))


def test_play_pauses_at_the_end_and_the_status_lists_the_keys(record):
    player = Player(read_timeline(record, None), legend=False)
    player.apply(Command("pause"))
    assert player.playing
    while player.playing:
        player.tick()
    assert player.position == player.last
    player.apply(Command("legend"))
    assert player.screen.legend
    player.apply(Command("decision"))
    assert "replay with --seat N" in player.status().plain
    assert KEYS_HELP in player.status().plain


def test_a_watched_match_is_held_after_each_step_that_adds_to_the_log():
    game = load_game("jamaica")
    state = game.new_game(2, 5)
    screen = MatchScreen("jamaica", game.static_info(), ["a", "b"], viewer=0)
    waited: list[float] = []
    drawn: list[int] = []
    feed = LocalFeed(screen, 0, Pacer(0.5, waited.append), lambda: drawn.append(1))
    feed.stepped(0, state.setup_events, state)
    grew = len(waited)  # the setup's lines
    for step in range(1, 40):
        request = state.pending()[0]
        lines = len(screen.log)
        feed.decided(step, request, Answer(0, str(step), 4.0), [])
        feed.stepped(step, state.apply(request.seat, 0), state)
        grew += len(screen.log) > lines
    assert 0 < grew < 40 and waited == [0.5] * grew and len(drawn) == grew
    unpaced: list[float] = []
    LocalFeed(screen, 0, Pacer(0, unpaced.append)).stepped(40, [], state)
    assert unpaced == []


def read_until(fd: int, wanted: bytes, limit: float = 20.0) -> bytes:
    seen = b""
    while wanted not in seen:
        ready, _, _ = select.select([fd], [], [], limit)
        if not ready:
            raise AssertionError(f"{wanted!r} never came; got {seen[-400:]!r}")
        try:
            seen += os.read(fd, 65536)
        except OSError:
            break
    return seen


def take_the_terminal() -> None:
    """In the child, a session leader: make its stdin (the pty) its controlling terminal,
    with itself in the foreground, as a shell would."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


@pytest.mark.parametrize("quit_key", [b"q", b"\x04"])
def test_through_a_terminal_keys_are_not_echoed_and_the_terminal_is_restored(record, quit_key):
    main, tty_side = pty.openpty()
    before = termios.tcgetattr(tty_side)
    env = {**os.environ, "COLUMNS": "100", "LINES": "30", "TERM": "xterm"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "admiralty.cli",
            "replay",
            str(record),
            "--interactive",
            "--seat",
            "1",
        ],
        stdin=tty_side,
        stdout=tty_side,
        stderr=tty_side,
        env=env,
        start_new_session=True,
        preexec_fn=take_the_terminal,
    )
    try:
        read_until(main, b"paused")
        os.write(main, b"nn")
        screen = read_until(main, b"step 2/")
        os.write(main, quit_key)
        assert process.wait(timeout=20) == 0
        after = termios.tcgetattr(tty_side)
        rest = os.read(main, 65536) if select.select([main], [], [], 0.5)[0] else b""
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)
        os.close(tty_side)
    assert b"nn" not in screen  # no echo
    assert b"not a readable match record" not in screen + rest
    assert after[3] == before[3]  # echo and canonical mode are back


def test_each_tick_of_play_adds_to_the_log(record):
    player = Player(read_timeline(record, 0))
    player.apply(Command("pause"))
    while player.playing:
        lines = len(player.screen.log)
        player.tick()
        assert len(player.screen.log) > lines or player.position == player.last
