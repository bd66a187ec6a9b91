"""A bot that picks uniformly among the legal options, seeded per match and seat.

    python example_bots/random_bot.py --port 50061 [--seed 7]
    python example_bots/random_bot.py --dial ARENA:PORT --key-file FILE [--seed 7]

Its generator for a match and seat is seeded from its own --seed, the seat and the seat's
first observation: match ids are random, but the same deal shows the same first
observation, so a match repeated with the referee's --seed gets the same choices, however
many matches the process plays at once.
"""

from __future__ import annotations

import argparse
import random

from admiralty_sdk import Bot, run, seat_seed


class RandomBot(Bot):
    name = "random"
    version = "1.0"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._rngs: dict[tuple[str, int], random.Random] = {}

    def decide(self, request) -> int:
        key = (request.match_id, request.seat)
        rng = self._rngs.get(key)
        if rng is None:
            rng = self._rngs[key] = random.Random(seat_seed(request, self.seed))
        return rng.randrange(len(request.options))

    def on_match_over(self, message) -> None:
        self._rngs.pop((message.result.match_id, message.seat), None)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    args, _ = parser.parse_known_args()
    run(RandomBot(args.seed))
