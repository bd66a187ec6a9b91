"""How a BOT argument becomes a process, and what a bot may declare in Hello."""

from __future__ import annotations

import os
import sys

import pytest

from admiralty.referee.clients import HelloError, check_hello
from admiralty.referee.launcher import BotLaunchError, bot_command
from admiralty_sdk.v1 import bot_pb2


def test_a_symlinked_interpreter_keeps_its_own_path(tmp_path, monkeypatch):
    """A venv's python is a symlink: followed, the bot would lose the venv's packages."""
    (tmp_path / "venv").mkdir()
    link = tmp_path / "venv" / "python"
    link.symlink_to(sys.executable)
    bot = tmp_path / "bot.py"
    bot.write_text("")
    monkeypatch.chdir(tmp_path)
    argv = bot_command(f"venv{os.sep}python bot.py --seed 3")
    assert argv == [str(link), "bot.py", "--seed", "3"]


def test_a_python_file_runs_with_this_interpreter_from_anywhere(tmp_path, monkeypatch):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mine.py").write_text("")
    monkeypatch.chdir(tmp_path)
    assert bot_command("bots/mine.py --seed 1") == [
        sys.executable, str(tmp_path / "bots" / "mine.py"), "--seed", "1"]


@pytest.mark.parametrize(("spec", "message"), [
    ("bots/none.py", "bot file not found"),
    ("no-such-command-here --x", "bot command not found"),
    ('python "open', "cannot be parsed"),
])
def test_a_bot_that_cannot_start_is_named(spec, message):
    with pytest.raises(BotLaunchError, match=message):
        bot_command(spec)


def test_an_unknown_auto_pass_kind_refuses_the_bot():
    with pytest.raises(HelloError, match="auto-passes not a window kind: 99"):
        check_hello(bot_pb2.HelloResponse(name="x", auto_pass=[99]))
