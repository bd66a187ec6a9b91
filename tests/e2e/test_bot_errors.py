"""A bot's bug points at its line: a Python bot that raises sends its error and where it
raised, and the incident (in `--json` and the table after `play`) shows it with the way to
the whole traceback; a bot with no SDK has the end of its stderr in its incident instead.
A bot that fails to start shows its first error line even when its runtime printed a long
stack after it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from e2e_helpers import RANDOM_BOT

BUGGY = """\
from admiralty_sdk import Bot, serve


class Buggy(Bot):
    name = "buggy"

    def decide(self, request):
        return {}[request.options[0].key]


if __name__ == "__main__":
    serve(Buggy())
"""
"""A Python SDK bot whose decide raises KeyError on its line 8."""

STDIO_DYING = """\
import json, sys

for line in sys.stdin:
    request = json.loads(line)
    if "hello" in request:
        print(json.dumps({"name": "dies"}), flush=True)
    elif "decide" in request:
        sys.exit("Fatal: the bot cannot count to " + str(len(request["decide"]["options"])))
"""
"""A stdio bot (no SDK) that writes its error to stderr and exits on its first decision."""


def play(tmp_path: Path, bot: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "admiralty.cli",
            "play",
            "jamaica",
            "--bot",
            bot,
            "--bot",
            RANDOM_BOT,
            "--seed",
            "3",
            "--option",
            "round_cap=2",
            *extra,
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )


def first_incident(tmp_path: Path, file: str, source: str, bot: str) -> dict:
    """Save `source` as `file`, play `bot` against the random bot; its first incident."""
    (tmp_path / file).write_text(source)
    played = play(tmp_path, bot, "--json")
    assert played.returncode == 0, played.stderr
    return json.loads(played.stdout)["incidents"][0]


def test_a_python_bot_that_raises_is_shown_where(tmp_path):
    first = first_incident(tmp_path, "buggy.py", BUGGY, "buggy.py")
    assert first["kind"] == "illegal"
    assert first["detail"].startswith("the call failed: UNKNOWN: KeyError: ")
    assert "buggy.py:8 in decide: return {}[request.options[0].key]" in first["detail"]
    assert "bot.py" not in first["detail"]  # the SDK's own frames are left out
    assert "`admiralty play --local` with this bot shows the whole traceback" in first["detail"]

    table = play(tmp_path, "buggy.py").stdout
    assert "buggy.py:8 in decide" in table and "last: 3 failed answers in a row" in table


def test_a_bot_without_the_sdk_shows_the_end_of_its_stderr(tmp_path):
    crash = first_incident(tmp_path, "dies.py", STDIO_DYING, "stdio:dies.py")
    assert crash["kind"] == "crash"
    assert "its stderr ends:\nFatal: the bot cannot count to " in crash["detail"]


def test_a_bot_that_fails_to_start_shows_its_first_error_line(tmp_path):
    """As Node does for a missing module: the error, then more than the tail's 8 lines."""
    (tmp_path / "noisy.py").write_text(
        textwrap.dedent("""\
        import sys
        print("Error: Cannot find module 'grpc'", file=sys.stderr)
        for n in range(20):
            print(f"    at frame {n}", file=sys.stderr)
        sys.exit(1)
    """)
    )
    played = play(tmp_path, "noisy.py")
    assert played.returncode != 0
    assert "first error: Error: Cannot find module 'grpc'" in played.stderr
    assert "at frame 19" in played.stderr and "at frame 5" not in played.stderr
