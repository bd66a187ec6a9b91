"""Train the policy of example_bots/policy_bot.py on Jamaica (2 players), then measure it.

Two stages, numpy only, in process through the local runner (`admiralty.referee.local`),
so the policy sees exactly the `DecideRequest`s a bot gets over gRPC, encoded by the SDK:

1. Imitation: the greedy bot (example_bots/jamaica_greedy.py) plays `--teacher-games`
   games against the random bot and against itself; the policy learns its answers by
   cross-entropy over the legal options.
2. REINFORCE: for `--rounds` rounds the policy, sampling from its softmax, plays
   `--round-games` games against the random and greedy bots in turn; each answer's
   log-probability is pushed by the game's reward (+1 won, -1 lost, as the research
   environments give it) less the round's mean reward against the same bot.

It then plays `--games` games (seeds apart from the training ones, seats alternating)
against the random bot and against the greedy bot, and prints the win rates (first place;
a shared first counts half). Every game is dealt from a seed, and the network's weights
and the sampling from `--seed`: a run repeats exactly.

    python benchmarks/train_policy.py                   # train, save, evaluate (~8 CPU min)
    python benchmarks/train_policy.py --out /tmp/p.npz --rounds 0 --json
    python benchmarks/train_policy.py --evaluate example_bots/policies/jamaica.npz
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from admiralty.referee.local import load_bot, play_local
from admiralty_sdk import Bot
from admiralty_sdk.encoding import RequestEncoder

BOTS = Path(__file__).resolve().parents[1] / "example_bots"
sys.path.insert(0, str(BOTS))
from policy_bot import DEFAULT_POLICY, WEIGHTS, Policy, PolicyBot  # noqa: E402

GAME = "jamaica"
EVALUATION_SEEDS = 1_000_000
"""Evaluation games are dealt from seeds above this, training games from seeds below it."""


@dataclass
class Sample:
    """One answered request: the view part of its observation, its options' rows, the
    option chosen and how much the update weighs it."""

    view: np.ndarray
    rows: np.ndarray
    action: int
    weight: float = 1.0


class Recorder(Bot):
    """Encodes each request, answers it with `choose(request, vector, mask)` and keeps the
    sample, in `samples` per seat of the game being played; a `teacher` bot that chooses
    is told the match's start and end too."""

    def __init__(
        self,
        policy: Policy,
        choose: Callable[[Any, np.ndarray, np.ndarray], int],
        teacher: Bot | None = None,
    ):
        self.policy, self.choose, self.teacher = policy, choose, teacher
        self.games = (GAME,)
        self.name = "recorder"
        self.samples: dict[int, list[Sample]] = {}
        self._encoders: dict[tuple[str, int], RequestEncoder] = {}

    def decide(self, request) -> int:
        key = (request.match_id, request.seat)
        encoder = self._encoders.setdefault(key, RequestEncoder(GAME))
        vector, mask = encoder.encode(request)
        action = self.choose(request, vector, mask)
        view, rows = self.policy.split(vector, int(mask.sum()))
        sample = Sample(view.copy(), rows.copy(), action)  # not views of the whole vector
        self.samples.setdefault(request.seat, []).append(sample)
        return action

    def on_match_start(self, request) -> None:
        if self.teacher is not None:
            self.teacher.on_match_start(request)

    def on_match_over(self, message) -> None:
        self._encoders.pop((message.result.match_id, message.seat), None)
        if self.teacher is not None:
            self.teacher.on_match_over(message)


def sampler(
    policy: Policy, rng: np.random.Generator
) -> Callable[[Any, np.ndarray, np.ndarray], int]:
    """Answers drawn from the policy's softmax over the legal options."""

    def choose(request, vector: np.ndarray, mask: np.ndarray) -> int:
        scores = policy.scores(*policy.split(vector, int(mask.sum())))
        odds = np.exp(scores - scores.max())
        return int(rng.choice(len(odds), p=odds / odds.sum()))

    return choose


def reward(places: Sequence[int], seat: int) -> float:
    """The research environments' reward for 2 players: +1 won, -1 lost, 0 tied."""
    mine, theirs = places[seat], places[1 - seat]
    return float((mine < theirs) - (mine > theirs))


def play(recorder: Recorder, opponent: Bot, seed: int) -> list[Sample]:
    """One game, the recorder in seat `seed % 2`; its samples weighted by its reward."""
    seat = seed % 2
    bots = [recorder, opponent] if seat == 0 else [opponent, recorder]
    recorder.samples = {}
    result = play_local(GAME, bots, seed=seed)
    won = reward(result.places, seat)
    samples = recorder.samples.get(seat, [])
    for sample in samples:
        sample.weight = won
    return samples


# ---------------------------------------------------------------------------- learning


@dataclass
class Batch:
    """Samples stacked: views (B, V), every option row (N, W), each sample's first row,
    each option's sample, the chosen rows and the weights."""

    views: np.ndarray
    rows: np.ndarray
    starts: np.ndarray
    owner: np.ndarray
    chosen: np.ndarray
    weights: np.ndarray

    @classmethod
    def of(cls, samples: Sequence[Sample]) -> Batch:
        counts = np.array([len(s.rows) for s in samples])
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        return cls(
            np.stack([s.view for s in samples]),
            np.concatenate([s.rows for s in samples]),
            starts,
            np.repeat(np.arange(len(samples)), counts),
            starts + np.array([s.action for s in samples]),
            np.array([s.weight for s in samples], dtype=np.float32),
        )


def gradients(policy: Policy, batch: Batch) -> tuple[float, dict[str, np.ndarray]]:
    """The loss -mean(weight * log p(chosen)) over the legal options, and its gradient."""
    w = policy.weights
    hidden = np.tanh(
        (batch.views @ w["view_in"])[batch.owner] + batch.rows @ w["option_in"] + w["bias"]
    )
    scores = hidden @ w["out"] + batch.rows @ w["direct"]
    top = np.maximum.reduceat(scores, batch.starts)
    odds = np.exp(scores - top[batch.owner])
    total = np.add.reduceat(odds, batch.starts)
    chosen_log = scores[batch.chosen] - top - np.log(total)
    size = len(batch.starts)
    loss = float(-(batch.weights * chosen_log).sum() / size)
    d_scores = odds / total[batch.owner] * batch.weights[batch.owner]
    d_scores[batch.chosen] -= batch.weights
    d_scores /= size
    d_hidden = np.outer(d_scores, w["out"]) * (1 - hidden**2)
    return loss, {
        "view_in": batch.views.T @ np.add.reduceat(d_hidden, batch.starts),
        "option_in": batch.rows.T @ d_hidden,
        "bias": d_hidden.sum(axis=0),
        "out": hidden.T @ d_scores,
        "direct": batch.rows.T @ d_scores,
    }


@dataclass
class Adam:
    """Adam on the policy's weights, in place."""

    rate: float
    moments: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    steps: int = 0

    def step(self, policy: Policy, grads: dict[str, np.ndarray]) -> None:
        self.steps += 1
        for name in WEIGHTS:
            m, v = self.moments.get(name, (0.0, 0.0))
            m = 0.9 * m + 0.1 * grads[name]
            v = 0.999 * v + 0.001 * grads[name] ** 2
            self.moments[name] = (m, v)
            fix = np.sqrt(1 - 0.999**self.steps) / (1 - 0.9**self.steps)
            policy.weights[name] -= (self.rate * fix * m / (np.sqrt(v) + 1e-8)).astype(np.float32)


def fit(
    policy: Policy,
    optimiser: Adam,
    samples: Sequence[Sample],
    epochs: int,
    batch: int,
    rng: np.random.Generator,
) -> float:
    """`epochs` passes of minibatch updates over `samples`; the last epoch's mean loss."""
    losses: list[float] = []
    for _ in range(epochs):
        order = rng.permutation(len(samples))
        losses = []
        for at in range(0, len(order), batch):
            loss, grads = gradients(policy, Batch.of([samples[i] for i in order[at : at + batch]]))
            optimiser.step(policy, grads)
            losses.append(loss)
    return float(np.mean(losses)) if losses else 0.0


# ---------------------------------------------------------------------------- stages


def imitate(policy: Policy, args: argparse.Namespace, rng: np.random.Generator) -> dict:
    """Learn the greedy bot's answers: it plays the random bot, then itself."""
    greedy = load_bot(BOTS / "jamaica_greedy.py")
    teacher = Recorder(policy, lambda request, vector, mask: greedy.decide(request), greedy)
    opponents = [load_bot(BOTS / "random_bot.py"), load_bot(BOTS / "jamaica_greedy.py")]
    samples: list[Sample] = []
    for seed in range(args.teacher_games):
        play(teacher, opponents[seed // 2 % 2], seed)
        samples += [s for seat_samples in teacher.samples.values() for s in seat_samples]
    for sample in samples:
        sample.weight = 1.0
    loss = fit(policy, Adam(args.rate), samples, args.epochs, args.batch, rng)
    return {"teacher_games": args.teacher_games, "samples": len(samples), "loss": round(loss, 4)}


def reinforce(policy: Policy, args: argparse.Namespace, rng: np.random.Generator) -> dict:
    """Policy-gradient rounds against the random and greedy bots in turn; the baseline is
    the round's mean reward against the same bot."""
    opponents = {"random": "random_bot.py", "greedy": "jamaica_greedy.py"}
    bots = [load_bot(BOTS / path) for path in opponents.values()]
    learner = Recorder(policy, sampler(policy, rng))
    optimiser, seed, means = Adam(args.rate / 10), args.teacher_games, [0.0, 0.0]
    for _ in range(args.rounds):
        games: list[list[list[Sample]]] = [[], []]
        for game in range(args.round_games):
            games[game % 2].append(play(learner, bots[game % 2], seed))
            seed += 1
        for against, played in enumerate(games):
            means[against] = float(np.mean([g[0].weight for g in played if g] or [0.0]))
            for sample in (s for g in played for s in g):
                sample.weight -= means[against]
        fit(
            policy,
            optimiser,
            [s for played in games for g in played for s in g],
            1,
            args.batch,
            rng,
        )
    return {
        "rounds": args.rounds,
        "games": args.rounds * args.round_games,
        "last_round_mean_reward": dict(zip(opponents, means, strict=True)),
    }


def evaluate(policy: Policy, games: int) -> dict[str, float]:
    """Win rates of the policy bot against the random and the greedy bot."""
    rates = {}
    for name, path in (("random", "random_bot.py"), ("greedy", "jamaica_greedy.py")):
        opponent, bot, won = load_bot(BOTS / path), PolicyBot(policy), 0.0
        for game in range(games):
            seed = EVALUATION_SEEDS + game
            seat = seed % 2
            result = play_local(GAME, [bot, opponent] if seat == 0 else [opponent, bot], seed=seed)
            won += (reward(result.places, seat) + 1) / 2
        rates[name] = round(won / games, 3)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_POLICY, help="where to save it")
    parser.add_argument("--evaluate", type=Path, help="only evaluate this saved policy")
    parser.add_argument("--games", type=int, default=200, help="evaluation games per opponent")
    parser.add_argument("--teacher-games", type=int, default=2000)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--round-games", type=int, default=40)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--rate", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    if args.evaluate:
        policy = Policy.load(args.evaluate)
    else:
        rng = np.random.default_rng(args.seed)
        policy = Policy.initial(GAME, args.hidden, rng)
        started = time.process_time()
        report["imitation"] = imitate(policy, args, rng)
        report["reinforce"] = reinforce(policy, args, rng)
        report["training_cpu_s"] = round(time.process_time() - started, 1)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        policy.save(args.out)
        report["saved"] = str(args.out)
    if args.games:
        report["win_rate"] = evaluate(policy, args.games)
        report["evaluation_games"] = args.games
    print(json.dumps(report) if args.json else json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
