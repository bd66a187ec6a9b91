"""example_bots/policy_bot.py: a saved policy played as a bot, over gRPC through the
referee with the SDK's encoder, and the policy shipped with it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from admiralty.referee.local import load_bot, play_local
from admiralty.referee.timeline import read_timeline
from admiralty_sdk.encoding import option_names, option_width, view_size

REPO = Path(__file__).resolve().parents[2]
BOTS = REPO / "example_bots"
sys.path.insert(0, str(BOTS))
from policy_bot import DEFAULT_POLICY, WEIGHTS, Policy  # noqa: E402


def highest_card_policy(hidden: int = 4) -> Policy:
    """A policy that scores a Jamaica option by its card's number alone: it plays its
    highest card, and takes option 0 of every other request (all scored 0, ties go low)."""
    direct = np.zeros(option_width("jamaica"))
    for i, name in enumerate(option_names("jamaica")):
        if name.startswith("payload.card="):
            direct[i] = int(name.partition("=")[2])
    weights = {
        "view_in": np.ones((view_size("jamaica"), hidden)),
        "option_in": np.ones((option_width("jamaica"), hidden)),
        "bias": np.zeros(hidden),
        "out": np.zeros(hidden),
        "direct": direct,
    }
    return Policy("jamaica", weights)


def admiralty_play(bots: list[str], record: Path, seed: int) -> dict:
    argv = [sys.executable, "-m", "admiralty.cli", "play", "jamaica", "--seed", str(seed)]
    for bot in bots:
        argv += ["--bot", bot]
    argv += ["--record", str(record), "--json"]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_saved_policy_plays_over_grpc_and_its_weights_make_its_choices(tmp_path):
    """Through the referee, each bot a process: the policy seat answers every request
    itself (no incident), plays its highest card at every card choice and option 0 of
    everything else, as its weights say."""
    path = tmp_path / "highest.npz"
    highest_card_policy().save(path)
    policy_bot = f"{BOTS / 'policy_bot.py'} --policy {path}"
    record = tmp_path / "m.jsonl.gz"
    report = admiralty_play([policy_bot, str(BOTS / "random_bot.py")], record, seed=5)
    assert report["incidents"] == []
    decisions = [f.decision for f in read_timeline(record, 0).frames if f.decision]
    asked = [d for d in decisions if d.how == "bot"]
    cards = [d for d in asked if d.kind == "choose_card"]
    assert len(cards) > 5 and len(asked) > len(cards)
    for decision in cards:
        numbers = [int(key.partition(":")[2]) for key, _ in decision.options]
        assert numbers[decision.chosen] == max(numbers)
    assert all(d.chosen == 0 for d in asked if d.kind != "choose_card")


def test_the_choice_is_the_best_scored_legal_option():
    """Options past the mask's ones are never chosen, whatever their rows would score."""
    policy = highest_card_policy()
    vector = np.zeros(view_size("jamaica") + 144 * option_width("jamaica"), np.float32)
    row = option_width("jamaica")
    column = {name: i for i, name in enumerate(option_names("jamaica"))}
    for option, number in enumerate([3, 9, 5, 11]):
        vector[view_size("jamaica") + option * row + column[f"payload.card={number}"]] = 1.0
    mask = np.array([1, 1, 1] + [0] * 141, np.int8)
    assert policy.choose(vector, mask) == 1


def test_weights_of_the_wrong_shape_are_refused():
    weights = highest_card_policy().weights | {"direct": np.zeros(5)}
    with pytest.raises(ValueError, match="direct"):
        Policy("jamaica", weights)


def test_the_shipped_policy_beats_the_random_bot():
    """The policy shipped in example_bots/policies (benchmarks/train_policy.py), in
    process: it wins most of 20 games against the random bot, seats alternating."""
    assert DEFAULT_POLICY.stat().st_size < 1_000_000
    bot, opponent = load_bot(BOTS / "policy_bot.py"), load_bot(BOTS / "random_bot.py")
    won = 0
    for seed in range(20):
        seat = seed % 2
        result = play_local("jamaica", [bot, opponent][:: 1 - 2 * seat], seed=seed)
        won += result.places[seat] < result.places[1 - seat]
    assert won >= 14


def test_the_training_gradient_is_the_slope_of_the_loss():
    """benchmarks/train_policy.py's hand-written gradient against finite differences, on
    a small random policy and a batch of weighted samples of 1 to 4 options."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from train_policy import Batch, Sample, gradients

    rng = np.random.default_rng(1)
    policy = Policy.initial("jamaica", 3, rng)
    for name in ("bias", "direct"):
        policy.weights[name] += rng.normal(0, 0.5, policy.weights[name].shape).astype(np.float32)
    view, row = view_size("jamaica"), option_width("jamaica")
    samples = [
        Sample(rng.random(view, np.float32), rng.random((count, row), np.float32), count - 1, w)
        for count, w in [(1, 1.0), (3, -0.5), (4, 2.0), (2, 1.0)]
    ]
    batch = Batch.of(samples)
    _, grads = gradients(policy, batch)
    for name in WEIGHTS:
        flat = policy.weights[name].reshape(-1)
        for at in rng.choice(flat.size, 3, replace=False):
            kept = flat[at]
            flat[at] = kept + 1e-2
            up = gradients(policy, batch)[0]
            flat[at] = kept - 1e-2
            down = gradients(policy, batch)[0]
            flat[at] = kept
            slope = (up - down) / 2e-2
            assert grads[name].reshape(-1)[at] == pytest.approx(slope, rel=0.05, abs=1e-3), name


def test_the_training_script_saves_a_policy_and_repeats_itself(tmp_path):
    """benchmarks/train_policy.py, tiny, twice: both stages run, each opponent gets a win
    rate, and the two policies saved (with the hidden size asked) are identical."""
    script = [sys.executable, str(REPO / "benchmarks" / "train_policy.py")]
    small = ["--teacher-games", "4", "--epochs", "1", "--rounds", "1", "--round-games", "2"]
    policies = []
    for run in range(2):
        out = tmp_path / f"p{run}.npz"
        result = subprocess.run(
            [*script, "--out", str(out), *small, "--games", "2", "--hidden", "8", "--json"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        assert report["imitation"]["samples"] > 4 * 20 and report["reinforce"]["games"] == 2
        assert set(report["win_rate"]) == {"random", "greedy"}
        assert all(0 <= rate <= 1 for rate in report["win_rate"].values())
        policies.append(Policy.load(out).weights)
    assert policies[0]["bias"].shape == (8,)
    assert all(np.array_equal(policies[0][name], policies[1][name]) for name in WEIGHTS)
