"""A bot whose every choice is a hash of its seed, its seat and the request number.

Unlike the example random bot it ignores the match id (which the referee draws at random
for every match), so the same plan played twice gives the same results: what the resume
and parallel tests compare.
"""

import argparse
import hashlib

from admiralty_sdk import Bot, serve


class HashBot(Bot):
    name = "hash"

    def __init__(self, seed: int):
        self.seed = seed

    def decide(self, request) -> int:
        text = f"{self.seed}:{request.seat}:{request.request_id}:{request.window_id}"
        return int(hashlib.sha256(text.encode()).hexdigest(), 16) % len(request.options)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args, _ = parser.parse_known_args()
    serve(HashBot(args.seed))
