"""The example bots dial in from their command line (`--dial ADDRESS --key-file FILE`) and
play a whole match: the Python ones through the SDK's `serve`, the Node one with its own
stream client."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys

import pytest
from dialin import Keys, arena, free_entrant
from e2e_helpers import RANDOM_BOT, ScriptedBot, serving

from admiralty.arena.lobby import Registered
from admiralty.referee.match import Match, MatchSpec

pytestmark = pytest.mark.xdist_group("example_bots_build")  # npm ci, as test_other_languages


async def play_dialed(command: list[str], key_file, game: str) -> tuple:
    """Start `command --dial ADDRESS --key-file key_file`, wait for it in the lobby and play
    one match of `game` with it in seat 0; the bot's Hello version, the report, and how
    the process ended on SIGTERM."""
    key_file.write_text("alpha-key\n")
    keys = Keys({"alpha-key": Registered("alpha", 1)})
    async with arena(keys) as (lobby, address), serving([ScriptedBot("beta")]) as clients:
        process = await asyncio.create_subprocess_exec(
            *command, "--dial", address, "--key-file", str(key_file)
        )
        try:
            entrant = await free_entrant(lobby, "alpha")
            seat = entrant.lease()
            report = await Match(MatchSpec("dialed", game, 5), [seat, clients[0]]).run()
            entrant.release(seat)
        finally:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(process.wait(), 10)
        return entrant.version, report, code


@pytest.mark.parametrize(
    ("command", "version", "ends"),
    [
        ([sys.executable, RANDOM_BOT, "--seed", "3"], "1.0", 0),
        (None, "1.0", -signal.SIGTERM),  # the Node bot: node's default for SIGTERM
    ],
    ids=["python-random", "node-random"],
)
def test_an_example_bot_dials_in_and_plays_a_match(command, version, ends, tmp_path, request):
    if command is None:
        command = request.getfixturevalue("node_bot")
    got_version, report, code = asyncio.run(play_dialed(command, tmp_path / "key", "jamaica"))
    assert got_version == version
    assert report.incidents == []
    assert len(report.latencies_ms[0]) > 5  # the dialed-in bot's own answers
    assert report.bot_names == ["alpha", "beta"]
    assert code == ends


def test_dial_without_a_key_file_is_one_line():
    result = subprocess.run(
        [sys.executable, RANDOM_BOT, "--dial", "127.0.0.1:1"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 1
    assert result.stderr == "--dial needs --key-file FILE: the bot's key, as the arena printed it\n"
