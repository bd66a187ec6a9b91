"""A bot that plays a trained policy: it encodes each request as the research environments
do (`admiralty_sdk.encoding`) and answers with the legal option its network scores highest.

    python example_bots/policy_bot.py --port 50063 [--policy FILE.npz]
    admiralty play jamaica --local --bot example_bots/policy_bot.py --bot example_bots/random_bot.py

The policy is a small numpy network in a .npz file (`Policy.save`), by default the Jamaica
policy shipped in example_bots/policies/, trained by benchmarks/train_policy.py. It scores
option i of a request from the view and the option's row of the observation:

    hidden_i = tanh(view @ view_in + row_i @ option_in + bias)
    score_i  = hidden_i @ out + row_i @ direct

and plays the best legal option (ties: the lowest index). There is no randomness: the same
request always gets the same answer.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from admiralty_sdk import Bot, run
from admiralty_sdk.encoding import RequestEncoder, option_width, view_size

DEFAULT_POLICY = Path(__file__).resolve().parent / "policies" / "jamaica.npz"
WEIGHTS = ("view_in", "option_in", "bias", "out", "direct")


class Policy:
    """A network scoring each option of a request; its weights are float32 arrays."""

    def __init__(self, game: str, weights: dict[str, np.ndarray]):
        self.game = game
        self.weights = {name: np.asarray(weights[name], dtype=np.float32) for name in WEIGHTS}
        self.view, self.row = view_size(game), option_width(game)
        hidden = self.weights["bias"].shape[0]
        expected = {
            "view_in": (self.view, hidden),
            "option_in": (self.row, hidden),
            "bias": (hidden,),
            "out": (hidden,),
            "direct": (self.row,),
        }
        for name, shape in expected.items():
            if self.weights[name].shape != shape:
                raise ValueError(f"{name} is {self.weights[name].shape}, {game} needs {shape}")

    @classmethod
    def initial(cls, game: str, hidden: int, rng: np.random.Generator) -> Policy:
        """Small random weights, scaled to each layer's fan-in."""
        view, row = view_size(game), option_width(game)
        return cls(
            game,
            {
                "view_in": rng.normal(0, 1 / np.sqrt(view), (view, hidden)),
                "option_in": rng.normal(0, 1 / np.sqrt(row), (row, hidden)),
                "bias": np.zeros(hidden),
                "out": rng.normal(0, 1 / np.sqrt(hidden), hidden),
                "direct": np.zeros(row),
            },
        )

    @classmethod
    def load(cls, path: Path | str) -> Policy:
        with np.load(path, allow_pickle=False) as data:
            return cls(str(data["game"]), {name: data[name] for name in WEIGHTS})

    def save(self, path: Path | str) -> None:
        np.savez_compressed(path, game=np.array(self.game), **self.weights)

    def split(self, vector: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
        """The view part of an observation and the rows of its first `count` options."""
        rows = vector[self.view : self.view + count * self.row]
        return vector[: self.view], rows.reshape(count, self.row)

    def scores(self, view: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """One score per option row."""
        w = self.weights
        hidden = np.tanh(view @ w["view_in"] + rows @ w["option_in"] + w["bias"])
        return hidden @ w["out"] + rows @ w["direct"]

    def choose(self, vector: np.ndarray, mask: np.ndarray) -> int:
        """The legal option scored highest (the legal options are the mask's leading ones)."""
        return int(np.argmax(self.scores(*self.split(vector, int(mask.sum())))))


class PolicyBot(Bot):
    name = "policy"
    version = "1.0"

    def __init__(self, policy: Policy):
        self.policy = policy
        self.games = (policy.game,)
        self._encoders: dict[tuple[str, int], RequestEncoder] = {}

    @classmethod
    def from_argv(cls, argv: list[str]) -> PolicyBot:
        parser = argparse.ArgumentParser(prog="policy_bot.py", description=__doc__.splitlines()[0])
        parser.add_argument("--policy", type=Path, default=DEFAULT_POLICY, help="a .npz policy")
        args, _ = parser.parse_known_args(argv)
        return cls(Policy.load(args.policy))

    def decide(self, request) -> int:
        key = (request.match_id, request.seat)
        encoder = self._encoders.get(key)
        if encoder is None:
            encoder = self._encoders[key] = RequestEncoder(self.policy.game)
        return self.policy.choose(*encoder.encode(request))

    def on_match_over(self, message) -> None:
        self._encoders.pop((message.result.match_id, message.seat), None)


if __name__ == "__main__":
    run(PolicyBot.from_argv(sys.argv[1:]))
