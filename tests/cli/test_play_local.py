"""The local runner (`admiralty.referee.local`, `admiralty play --local`): the match the bots
would play over gRPC, in this process, and search through seat-bound determinizations."""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
import types
from pathlib import Path

import pytest

from admiralty.games import GameState, load_game
from admiralty.referee.local import load_bot, play_local
from admiralty.referee.match import Match
from admiralty.wire import codec_for
from admiralty_sdk import Bot, observation, seat_seed
from admiralty_sdk.v1 import bot_pb2

REPO = Path(__file__).resolve().parents[2]
BOTS = REPO / "example_bots"
MATCHES = {
    "jamaica": ["jamaica_greedy.py", "random_bot.py"],
    "black_fleet": ["black_fleet_greedy.py", "random_bot.py", "random_bot.py"],
}
"""Deterministic bots: the greedy ones have no randomness, the random bot seeds itself from
its seat and first observation."""


def admiralty_play(game: str, bots: list[str], record: Path, *extra: str) -> dict:
    argv = [
        sys.executable,
        "-m",
        "admiralty.cli",
        "play",
        game,
        "--seed",
        "11",
        "--record",
        str(record),
        "--json",
        *extra,
    ]
    for name in bots:
        argv += ["--bot", str(BOTS / name)]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def record_lines(path: Path) -> list[dict]:
    """The record without what names the match or times the bots."""
    with gzip.open(path, "rt") as lines:
        out = [json.loads(line) for line in lines]
    for line in out:
        for key in ("match_id", "wire_id", "latency_ms"):
            line.pop(key, None)
    return out


@pytest.mark.parametrize("game", MATCHES)
def test_a_local_match_is_the_match_over_grpc(game, tmp_path):
    """Same outcome, same decisions (who, what kind, which option, how), same events."""
    grpc_report = admiralty_play(game, MATCHES[game], tmp_path / "grpc.jsonl.gz")
    local_report = admiralty_play(game, MATCHES[game], tmp_path / "local.jsonl.gz", "--local")
    for report in (grpc_report, local_report):
        report.pop("match_id"), report.pop("record")
    assert local_report == grpc_report
    grpc_record = record_lines(tmp_path / "grpc.jsonl.gz")
    assert record_lines(tmp_path / "local.jsonl.gz") == grpc_record

    result = play_local(game, [load_bot(BOTS / name) for name in MATCHES[game]], seed=11)
    assert [p["place"] for p in grpc_report["placements"]] == result.places
    decided = [
        (d["step"], d["seat"], d["kind"], d["index"], d["how"])
        for d in grpc_record
        if d["t"] == "decision"
    ]
    assert [(d.step, d.seat, d.kind, d.index, d.how) for d in result.decisions] == decided
    # Each request these engines publish with one option is a window opened whatever its
    # seat holds (dice, spoils, a fortune window): asked, locally as over gRPC.
    assert {d.how for d in result.decisions} == {"bot"}


class Sampling(Bot):
    """Checks, at every decision, that its seat's samples show it the observation it was
    sent and differ in what it cannot see; plays the first option."""

    name = "sampling"

    def __init__(self):
        self.samplers, self.checked, self.varied = {}, 0, 0

    def use_sampler(self, match_id, seat, sampler):
        self.samplers[match_id, seat] = sampler

    def decide(self, request) -> int:
        sampler = self.samplers[request.match_id, request.seat]
        samples = [sampler.sample(random.Random(k)) for k in range(2)]
        codec = codec_for(request.WhichOneof("observation"))
        for sample in samples:
            assert codec.observation_pb(sample.view(request.seat)) == observation(request)
        self.checked += 1
        self.varied += samples[0].digest() != samples[1].digest()
        return 0


def test_a_searching_bot_samples_what_its_seat_has_seen():
    bot = Sampling()
    play_local("jamaica", [bot, load_bot(BOTS / "random_bot.py")], seed=3)
    assert bot.checked > 20 and bot.varied == bot.checked


def reachable(root: object) -> list[object]:
    """Every object reached from `root` by attributes: fields and slots, a class's members,
    bound methods, closures, defaults and container items; not a function's module
    globals, through which everything in the process is reached."""
    seen, out, todo = set(), [], [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (types.ModuleType, str, bytes, int, float)):
            continue
        seen.add(id(obj))
        out.append(obj)
        kind = type(obj)
        if kind.__module__ != "builtins":
            todo.append(kind)
        for owner in kind.__mro__:
            for slot in vars(owner).get("__slots__", ()):
                todo.append(getattr(obj, slot, None))
        todo += list(getattr(obj, "__dict__", {}).values())
        todo += [cell.cell_contents for cell in getattr(obj, "__closure__", None) or ()]
        for name in ("__self__", "__func__", "__defaults__", "__kwdefaults__", "__wrapped__"):
            todo.append(getattr(obj, name, None))
        if isinstance(obj, dict):
            todo += [*obj.keys(), *obj.values()]
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo += list(obj)
    return out


def test_no_attribute_of_a_sampler_leads_to_the_match():
    """A bot holding its sampler cannot walk to the real state: the sampler keeps neither
    the match nor the state, by attribute, closure or method."""
    bot = Sampling()
    play_local("jamaica", [bot, load_bot(BOTS / "random_bot.py")], seed=3)
    for sampler in bot.samplers.values():
        reached = reachable(sampler)
        assert not [obj for obj in reached if isinstance(obj, (Match, GameState))]
    state = load_game("jamaica").new_game(2, seed=3)
    hidden = types.SimpleNamespace(sample=lambda rng: state.determinize(0, rng))
    assert any(obj is state for obj in reachable(hidden))  # the walk finds a closure's


def test_play_local_is_a_function_of_the_seed():
    def decisions(seed):
        bots = [load_bot(BOTS / "random_bot.py") for _ in range(3)]
        return play_local("blackbeard", bots, seed).decisions

    assert decisions(4) == decisions(4) != decisions(5)


def test_only_a_python_file_defining_one_bot_class_plays_locally(tmp_path):
    """Its arguments go to the class's `from_argv`; a class without one takes none."""
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    for path, message in ((REPO / "README.md", "Python file"), (empty, "no Bot subclass")):
        with pytest.raises(ValueError, match=message):
            load_bot(path)
    argv = [
        sys.executable,
        "-m",
        "admiralty.cli",
        "play",
        "jamaica",
        "--local",
        "--bot",
        str(BOTS / "random_bot.py"),
        "--bot",
        f"{BOTS / 'random_bot.py'} --seed 1",
    ]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=REPO)
    assert result.returncode != 0 and "RandomBot takes no arguments" in result.stderr


def test_the_ismcts_bot_searches_only_through_the_local_runner():
    """It plays a local match to the end, the same for the same seeds; without a sampler
    (served over gRPC) it has nothing to search and says how to run it."""
    spec = f"{BOTS / 'ismcts.py'} --iterations 4 --depth 5 --seed 2"

    def decisions():
        return play_local(
            "jamaica", [load_bot(spec), load_bot(BOTS / "random_bot.py")], seed=6
        ).decisions

    first = decisions()
    assert first == decisions() and any(d.seat == 0 and d.how == "bot" for d in first)
    with pytest.raises(RuntimeError, match="local runner"):
        load_bot(spec).decide(bot_pb2.DecideRequest(match_id="over-grpc", seat=0))
    result = subprocess.run(
        [sys.executable, str(BOTS / "ismcts.py")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert result.returncode != 0 and "--local" in result.stderr


@pytest.mark.parametrize("game", ["jamaica", "black_fleet", "blackbeard"])
def test_a_seat_seed_is_the_seats_whoever_sits_there(game):
    """`seat_seed` on a seat's first request depends on the deal and the seat, not on which
    bot sits there or where the others sit: what lets a bot seeded by it bring a seat the
    same luck in every rotation of a duplicate deal."""

    def first_seeds(names: tuple[str, ...], seed: int) -> dict[int, bytes]:
        seeds: dict[int, bytes] = {}

        class First(Bot):
            games = [game]
            version = "1"

            def __init__(self, name: str) -> None:
                self.name = name

            def decide(self, request: bot_pb2.DecideRequest) -> int:
                seeds.setdefault(request.seat, seat_seed(request, "salt"))
                return len(request.options) - 1

        play_local(game, [First(name) for name in names], seed)
        return seeds

    seated = first_seeds(("a", "b", "c", "d"), 5)
    assert len(set(seated.values())) == 4
    assert first_seeds(("d", "a", "b", "c"), 5) == seated
    assert set(first_seeds(("a", "b", "c", "d"), 6).values()).isdisjoint(seated.values())
