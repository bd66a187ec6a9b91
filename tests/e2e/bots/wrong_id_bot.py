"""A bot that echoes the wrong request id on every third request: it overwrites the
request's id (an off-by-one) before the SDK echoes it."""

import random

from admiralty_sdk import Bot, run


class WrongIdBot(Bot):
    name = "wrong-id"
    games = ("jamaica",)

    def decide(self, request) -> int:
        if int(request.request_id) % 3 == 0:
            request.request_id = str(int(request.request_id) - 1)
        rng = random.Random(f"{request.match_id}:{request.seat}:{request.request_id}")
        return rng.randrange(len(request.options))


if __name__ == "__main__":
    run(WrongIdBot())
