"""`admiralty records export` (`admiralty.research.dataset`): a seat's decisions in match
records as rows of what its bot was sent and did, from its own view only."""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from twins import _window, random_twins

from admiralty.referee.local import load_bot, run_local
from admiralty.referee.match import MatchSpec, checked_options
from admiralty.research.actions import PLAYERS
from admiralty.research.dataset import DTYPES, export, seat_rows
from admiralty_sdk import Bot
from admiralty_sdk.encoding import RequestEncoder, size

REPO = Path(__file__).resolve().parents[2]


class EncodingBot(Bot):
    """Answers at random (seeded) and keeps each request's encoding and its answer."""

    def __init__(self, game: str, seed: int):
        self.name, self.games = f"encoding-{seed}", (game,)
        self.rng, self.encoder = random.Random(seed), RequestEncoder(game)
        self.sent: list[tuple[np.ndarray, np.ndarray, int]] = []

    def decide(self, request) -> int:
        vector, mask = self.encoder.encode(request)
        answer = self.rng.randrange(len(request.options))
        self.sent.append((vector, mask, answer))
        return answer


def recorded(game: str, players: int, seat: int, seed: int, path: Path):
    """A match of the encoding bot in `seat` against random bots, recorded at `path`;
    the bot and the seats' places."""
    bot = EncodingBot(game, seed)
    bots = [load_bot(REPO / "example_bots" / "random_bot.py") for _ in range(players)]
    bots[seat] = bot
    options = checked_options(game, players, {})
    spec = MatchSpec(f"m-{seed}", game, seed, options, record_path=path)
    return bot, asyncio.run(run_local(spec, bots)).places


@pytest.mark.parametrize("game", list(PLAYERS))
def test_rows_are_what_the_seats_bot_was_sent_and_answered(game, tmp_path):
    """Every game, a middle seat: one row per request the bot got, whose observation and
    mask are exactly its encoded `DecideRequest` (SEALED windows included) and whose action
    is its answer; only the last row is done, with the reward of the seat's place."""
    players, seat = 3, 1
    bot, places = recorded(game, players, seat, 7, tmp_path / "m.jsonl.gz")
    arrays = export([tmp_path / "m.jsonl.gz"], seat).arrays()
    assert {name: a.dtype for name, a in arrays.items()} == DTYPES
    assert len(arrays["action"]) == len(bot.sent) > 10
    for row, (vector, mask, answer) in enumerate(bot.sent):
        assert np.array_equal(arrays["observation"][row], vector), row
        assert np.array_equal(arrays["mask"][row], mask), row
        assert arrays["action"][row] == answer
    behind = sum(place > places[seat] for place in places)
    ahead = sum(place < places[seat] for place in places)
    assert arrays["reward"][-1] == (behind - ahead) / (players - 1)
    assert arrays["done"].tolist() == [False] * (len(bot.sent) - 1) + [True]
    assert not arrays["reward"][:-1].any()


def twin_lines(twins, steps: int) -> list[dict]:
    """Record lines of `steps` answers chosen by `twins.choose` on a copy of twin `a`, the
    referee's way: a SEALED window wholly chosen before any of it is applied."""
    state, lines = twins.a.clone(), []
    while len(lines) < steps and state.outcome() is None:
        window = _window(state.pending())
        answers = [twins.choose(state, request) for request in window]
        for request, answer in zip(window, answers, strict=True):
            lines.append(
                {
                    "step": len(lines) + 1,
                    "seat": request.seat,
                    "window_id": request.window_id,
                    "window": str(request.window),
                    "index": answer,
                    "how": "bot",
                }
            )
            state.apply(request.seat, answer)
    return lines[:steps]


def exported(twins, state, lines, seat) -> list[dict]:
    """The rows of `seat` as `lines` are applied to a copy of `state`, each kept whole."""
    rows = seat_rows(twins.game, state.clone(), lines, seat)
    return [{name: np.copy(value) for name, value in row.items()} for row in rows]


@pytest.mark.parametrize("seed", [3, 8])
def test_twins_differing_in_another_seats_hand_export_alike_for_the_observer(seed):
    """Jamaica, 2 players, the other seat's hand dealt again (tests/support/twins.py): as
    long as nothing reveals it, the observer's rows are identical in both twins, float for
    float, while the hand holder's own rows differ (its hand is in its view)."""
    twins = random_twins("jamaica", seed, 30, players=2, parts=("hands",))
    other = 1 - twins.observer
    assert twins.a.view(other)["players"][other] != twins.b.view(other)["players"][other]
    lines = twin_lines(twins, twins.horizon())
    mine = [exported(twins, state, lines, twins.observer) for state in (twins.a, twins.b)]
    assert len(mine[0]) == len(mine[1]) > 0
    for row_a, row_b in zip(*mine, strict=True):
        assert all(np.array_equal(row_a[name], row_b[name]) for name in row_a)
    theirs = [exported(twins, state, lines, other) for state in (twins.a, twins.b)]
    assert not np.array_equal(theirs[0][0]["observation"], theirs[1][0]["observation"])


def test_the_command_writes_an_npz_and_reports_rows_per_second(tmp_path):
    """Two Jamaica records, seat 0: the npz holds every column, the game and the seat, as
    many rows as the bot made decisions; --json says so, with the rate."""
    paths, sent = [], 0
    for seed in (1, 2):
        path = tmp_path / f"m{seed}.jsonl.gz"
        bot, _ = recorded("jamaica", 2, 0, seed, path)
        paths.append(str(path))
        sent += len(bot.sent)
    out = tmp_path / "data.npz"
    argv = [sys.executable, "-m", "admiralty.cli", "records", "export", *paths]
    result = subprocess.run(
        [*argv, "--seat", "0", "--out", str(out), "--json"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["rows"], summary["records"], summary["game"]) == (sent, 2, "jamaica")
    assert summary["rows_per_s"] > 0 and summary["write_cpu_seconds"] >= 0
    with np.load(out) as data:
        assert str(data["game"]) == "jamaica" and int(data["seat"]) == 0
        assert data["observation"].shape == (sent, size("jamaica"))
        assert sorted(set(data["match"].tolist())) == [0, 1]
        assert data["done"].sum() == 2


def test_the_command_refuses_a_seat_the_records_lack_mixed_games_and_other_rules(tmp_path):
    recorded("jamaica", 2, 0, 1, tmp_path / "j.jsonl.gz")
    recorded("black_fleet", 3, 0, 1, tmp_path / "f.jsonl.gz")
    argv = [sys.executable, "-m", "admiralty.cli", "records", "export"]
    out = ["--out", str(tmp_path / "d.npz")]
    seat = subprocess.run(
        [*argv, str(tmp_path / "j.jsonl.gz"), "--seat", "2", *out], capture_output=True, text=True
    )
    assert seat.returncode == 1 and "seats 0 to 1" in seat.stderr
    mixed = [str(tmp_path / "j.jsonl.gz"), str(tmp_path / "f.jsonl.gz")]
    games = subprocess.run([*argv, *mixed, "--seat", "0", *out], capture_output=True, text=True)
    assert games.returncode == 1 and "black_fleet record, not jamaica" in games.stderr
    with gzip.open(tmp_path / "j.jsonl.gz", "rt") as lines:
        header, *rest = [json.loads(line) for line in lines]
    with gzip.open(tmp_path / "old.jsonl.gz", "wt") as lines:
        lines.writelines(json.dumps(line) + "\n" for line in [header | {"rules_hash": "x"}, *rest])
    rules = subprocess.run(
        [*argv, str(tmp_path / "old.jsonl.gz"), "--seat", "0", *out], capture_output=True, text=True
    )
    assert rules.returncode == 1 and "other rules" in rules.stderr
    assert not (tmp_path / "d.npz").exists()


def test_parquet_holds_the_rows_of_the_npz(tmp_path):
    """The .parquet export holds the same columns, row for row, and
    the game and seat in its metadata."""
    import pyarrow.parquet as parquet

    from admiralty.research.dataset import save

    recorded("jamaica", 2, 1, 4, tmp_path / "m.jsonl.gz")
    rows = export([tmp_path / "m.jsonl.gz"], 1)
    save(rows, tmp_path / "d.parquet")
    table = parquet.read_table(tmp_path / "d.parquet")
    assert table.schema.metadata == {b"game": b"jamaica", b"seat": b"1"}
    for name, column in rows.arrays().items():
        stored = table.column(name).combine_chunks()
        if column.ndim > 1:
            stored = np.asarray(stored.flatten()).reshape(column.shape)
        assert np.array_equal(np.asarray(stored), column), name
