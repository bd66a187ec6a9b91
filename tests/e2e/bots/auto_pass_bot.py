"""A bot that declares it always passes INTERRUPT windows. The referee must then never send
it an INTERRUPT request with PASS: it would answer one out of range. INTERRUPT requests
without PASS (a defender's gunpowder, say) it answers like the rest, at random."""

import random

from admiralty_sdk import Bot, serve
from admiralty_sdk.v1 import common_pb2


class AutoPassBot(Bot):
    name = "auto-pass"
    games = ("jamaica",)
    auto_pass = ("INTERRUPT",)

    def decide(self, request) -> int:
        if request.window == common_pb2.WINDOW_KIND_INTERRUPT and request.optional:
            return len(request.options)
        rng = random.Random(f"{request.match_id}:{request.seat}:{request.request_id}")
        return rng.randrange(len(request.options))


if __name__ == "__main__":
    serve(AutoPassBot())
