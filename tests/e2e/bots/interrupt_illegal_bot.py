"""A bot that answers an index past the last option in INTERRUPT windows only, and a legal
random one everywhere else."""

import random

from admiralty_sdk import Bot, run
from admiralty_sdk.v1 import common_pb2


class InterruptIllegalBot(Bot):
    name = "interrupt-illegal"
    games = ("jamaica",)

    def decide(self, request) -> int:
        if request.window == common_pb2.WINDOW_KIND_INTERRUPT:
            return len(request.options)
        rng = random.Random(f"{request.match_id}:{request.seat}:{request.request_id}")
        return rng.randrange(len(request.options))


if __name__ == "__main__":
    run(InterruptIllegalBot())
