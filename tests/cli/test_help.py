"""Every command's --help reads as plain text at 80 columns and on a narrower terminal: no
Python type labels (`<bool>`, `<int range>`, `<list[str]>`), no number ranges (the seed's
ran to 78 digits), no line wider than the terminal and no word split across two lines."""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys

import pytest
import typer.main
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.cli.check_bot import FEWEST_CONNECTIONS
from admiralty.games import GAMES
from admiralty.referee.conformance import seats_needed

TYPE_LABEL = re.compile(r"<[a-z][a-z \[\]|]*>")
RANGE = re.compile(r"\bx ?[<>]=|\d{20,}")


def commands(command=None, path=()):
    """(the words that call it, the command) for the app, each group and each command."""
    command = command or typer.main.get_command(app)
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from commands(sub, (*path, name))


COMMANDS = dict(commands())


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("path", COMMANDS, ids=lambda path: " ".join(path) or "admiralty")
def test_help_names_values_plainly_and_wraps_between_words(path, width):
    result = CliRunner().invoke(app, [*path, "--help"], terminal_width=width)
    shown = result.stdout
    assert result.exit_code == 0, result.output
    assert not TYPE_LABEL.search(shown), TYPE_LABEL.search(shown)
    assert not RANGE.search(shown), RANGE.search(shown)
    assert max(map(len, shown.splitlines())) <= width
    # every text whole: a word split at a hyphen or cut short would not be found again
    command = COMMANDS[path]
    texts = [
        *inspect.cleandoc(command.help or "").split("\n\n"),
        *(param.help for param in command.params if getattr(param, "help", None)),
        *(sub.get_short_help_str() for sub in getattr(command, "commands", {}).values()),
    ]
    for text in texts:
        assert flat(text) in flat(shown)


def test_a_flag_takes_no_value_and_a_value_is_named_by_what_it_is():
    shown = CliRunner().invoke(app, ["play", "--help"], terminal_width=80).stdout
    assert re.search(r"^  --watch  ", shown, re.MULTILINE)
    assert "--no-watch" not in shown
    for named in (
        "-b, --bot BOT",
        "--seed N",
        "--deadline SECONDS",
        "--record PATH",
        "--policy default|random|forfeit",
        "-o, --option NAME=VALUE",
    ):
        assert f"  {named}  " in shown or f"  {named}\n" in shown
    assert shown.splitlines()[0].endswith(" play [OPTIONS] GAME")


def test_a_range_left_out_of_the_help_is_still_checked():
    result = CliRunner().invoke(app, ["play", "jamaica", "--bot", "a.py", "--seed", "-1"])
    assert result.exit_code == 2
    assert "--seed" in result.output


def test_the_version_is_the_installed_distributions():
    from importlib.metadata import version

    result = CliRunner().invoke(app, ["--version"])
    assert (result.exit_code, result.stdout) == (0, f"admiralty {version('admiralty')}\n")


def test_check_bots_help_gives_the_fewest_connections_its_checks_need():
    assert seats_needed(GAMES, 1) == FEWEST_CONNECTIONS
    shown = CliRunner().invoke(app, ["check-bot", "--help"], terminal_width=200).stdout
    assert f"(--matches, at least {seats_needed(GAMES, 1)})" in flat(shown)


def test_the_command_line_starts_without_loading_a_game():
    """Building the commands and their help (at every start) loads no engine: `games`,
    `replay` or `--version` pay for none, `play` only for the game it plays."""
    code = (
        "import json, sys, typer.main; from admiralty.cli import app; "
        "typer.main.get_command(app); print(json.dumps(sorted(sys.modules)))"
    )
    started = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert started.returncode == 0, started.stderr
    engines = {f"admiralty.games.{game}" for game in GAMES}
    assert engines.isdisjoint(json.loads(started.stdout))
