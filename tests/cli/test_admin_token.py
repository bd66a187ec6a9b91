"""The admin token stays off command lines: every command that takes it reads it from
ADMIRALTY_TOKEN or --token-file, and one typed as --token (readable by every local user
through ps) draws a warning."""

from __future__ import annotations

import stat
import subprocess
import sys

import grpc
import pytest
from e2e_helpers import ScriptedBot, served_referee
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.referee.launcher import free_port
from admiralty_sdk.v1 import referee_pb2, referee_pb2_grpc

TOKEN = "secret"
WARNING = (
    "warning: a token typed as --token can be read by every user of this machine "
    "(ps); set ADMIRALTY_TOKEN or use --token-file\n"
)


def invoke(args: list[str], env: dict[str, str] | None = None):
    return CliRunner().invoke(app, args, env={"ADMIRALTY_TOKEN": None, **(env or {})})


@pytest.fixture(scope="module")
def served():
    """A referee with one finished match: its address and the match id."""
    bots = [ScriptedBot("a", lambda r: 0), ScriptedBot("b", lambda r: 0)]
    with (
        served_referee(bots, token=TOKEN) as (address, bots),
        grpc.insecure_channel(address) as channel,
    ):
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        created = stub.CreateMatch(
            referee_pb2.CreateMatchRequest(game="jamaica", bots=bots, seed=3),
            metadata=(("authorization", f"Bearer {TOKEN}"),),
        )
        for _ in stub.Watch(referee_pb2.WatchRequest(match_id=created.match_id)):
            pass  # to its end
        yield address, created.match_id


def ways(tmp_path) -> dict[str, tuple[list[str], dict[str, str]]]:
    """The token given each way: extra arguments and environment."""
    (tmp_path / "token").write_text(TOKEN + "\n")
    return {
        "environment": ([], {"ADMIRALTY_TOKEN": TOKEN}),
        "file": (["--token-file", str(tmp_path / "token")], {}),
        "file before environment": (
            ["--token-file", str(tmp_path / "token")],
            {"ADMIRALTY_TOKEN": "wrong"},
        ),
        "typed": (["--token", TOKEN], {}),
    }


@pytest.mark.parametrize("way", ["environment", "file", "file before environment", "typed"])
@pytest.mark.parametrize("command", ["watch", "match list", "match show"])
def test_every_command_takes_the_token_each_way_and_warns_when_it_is_typed(
    served, tmp_path, command, way
):
    address, match_id = served
    extra, env = ways(tmp_path)[way]
    args = {
        "watch": ["watch", match_id, "--seat", "1"],
        "match list": ["match", "list", "--json"],
        "match show": ["match", "show", match_id, "--json"],
    }[command]
    result = invoke([*args, "--server", address, *extra], env)
    assert result.exit_code == 0, result.output
    assert result.stderr == (WARNING if way == "typed" else "")
    shown = "▶ b · " if command == "watch" else match_id  # seat 1's requests: the token's
    assert shown in result.stdout


def test_match_create_takes_the_token_from_a_file(tmp_path):
    (tmp_path / "token").write_text(TOKEN)
    bots = [ScriptedBot("a", lambda r: 0), ScriptedBot("b", lambda r: 0)]
    with served_referee(bots, token=TOKEN) as (address, bots):
        result = invoke(
            [
                "match",
                "create",
                "jamaica",
                "--bot",
                bots[0],
                "--bot",
                bots[1],
                "--server",
                address,
                "--token-file",
                str(tmp_path / "token"),
            ]
        )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("match jamaica-") and result.stderr == ""


@pytest.mark.parametrize(
    ("args", "env", "error"),
    [
        (
            [],
            {},
            "error: this call needs the admin token `admiralty serve` printed: set "
            "ADMIRALTY_TOKEN or give --token-file FILE",
        ),
        (
            [],
            {"ADMIRALTY_TOKEN": "tök"},
            "error: --token or ADMIRALTY_TOKEN: not an admin token "
            "(`admiralty serve` prints one of printable ASCII characters, no spaces)",
        ),
        (
            ["--token-file", "missing"],
            {},
            "error: --token-file missing: cannot read it: No such file or directory",
        ),
    ],
)
def test_a_missing_or_impossible_token_is_one_usage_line(args, env, error):
    result = invoke(["match", "list", "--server", "127.0.0.1:1", *args], env)
    assert (result.exit_code, result.stderr) == (2, error + "\n")


def test_an_empty_token_file_is_refused(tmp_path):
    (tmp_path / "token").write_text("\n")
    result = invoke(
        ["watch", "m", "--server", "127.0.0.1:1", "--token-file", str(tmp_path / "token")]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: --token-file {tmp_path / 'token'}: not an admin token")


def test_serve_writes_its_token_to_a_file_only_its_user_may_read(tmp_path):
    """The file the clients' --token-file reads: written before the server listens, 0600
    even when a file readable by others was there."""
    token_file = tmp_path / "token.txt"
    token_file.write_text("old")
    token_file.chmod(0o644)
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "admiralty.cli",
            "serve",
            "--port",
            str(port),
            "--token-file",
            str(token_file),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        printed = [server.stdout.readline() for _ in range(2)][1]
    finally:
        server.terminate()
        server.wait(10)
    assert printed == f"admin token: {token_file.read_text().strip()}\n"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
