"""`admiralty match create | list | show`: a served referee used from the CLI alone."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time

from e2e_helpers import RANDOM_BOT
from test_cli import ADMIRALTY, admiralty, assert_one_line_error

from admiralty.referee.launcher import free_port


@contextlib.contextmanager
def running(*argv: str):
    process = subprocess.Popen(
        list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        yield process
    finally:
        process.terminate()
        process.communicate(timeout=30)


def test_a_match_is_created_listed_and_shown_from_the_cli(tmp_path):
    port, bots = free_port(), [free_port(), free_port()]
    server = f"127.0.0.1:{port}"
    with (
        running(*ADMIRALTY, "serve", "--port", str(port), "--records", str(tmp_path)) as ref,
        running(sys.executable, RANDOM_BOT, "--port", str(bots[0])) as one,
        running(sys.executable, RANDOM_BOT, "--port", str(bots[1])) as two,
    ):
        assert "listening" in ref.stdout.readline()
        assert all("listening" in bot.stderr.readline() for bot in (one, two))
        token = tmp_path / "token"
        token.write_text(ref.stdout.readline().split("admin token:")[1].strip())
        common = ["--server", server, "--token-file", str(token), "--json"]
        created = admiralty(
            "match",
            "create",
            "jamaica",
            "--bot",
            f"127.0.0.1:{bots[0]}",
            "--bot",
            f"grpc://127.0.0.1:{bots[1]}",
            "--seed",
            "5",
            *common,
        )
        assert created.returncode == 0, created.stderr
        match = json.loads(created.stdout)
        assert match["seed"] == "5"
        deadline = time.monotonic() + 120
        while True:
            shown = json.loads(admiralty("match", "show", match["match_id"], *common).stdout)
            if shown["status"] in ("finished", "failed") or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        listed = json.loads(admiralty("match", "list", *common).stdout)
        (tmp_path / "wrong").write_text("wrong")
        wrong = admiralty(
            "match", "list", "--server", server, "--token-file", str(tmp_path / "wrong")
        )
    assert shown["status"] == "finished", shown
    assert shown["master_seed"] == "5" and shown["record_path"].endswith(".jsonl.gz")
    assert sorted(p["place"] for p in shown["result"]["placements"])[0] == 1
    assert [m["match_id"] for m in listed] == [match["match_id"]]
    assert_one_line_error(wrong, "permission_denied", "wrong admin token")


def test_match_create_refuses_what_the_referee_would_refuse(tmp_path):
    port = free_port()
    with running(*ADMIRALTY, "serve", "--port", str(port)) as ref:
        ref.stdout.readline()
        token = tmp_path / "token"
        token.write_text(ref.stdout.readline().split("admin token:")[1].strip())
        result = admiralty(
            "match",
            "create",
            "jamaica",
            "--bot",
            "127.0.0.1:1",
            "--server",
            f"127.0.0.1:{port}",
            "--token-file",
            str(token),
        )
    assert_one_line_error(result, "invalid_argument", "jamaica is played by 2 to 6 players")
