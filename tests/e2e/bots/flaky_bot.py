"""A bot that fails every third request, too seldom to be retired for it (never twice in a
row, never half its answers): an index past the last option, then a wrong request id, and
so on; a legal random index otherwise."""

import random

from admiralty_sdk import Bot, serve


class FlakyBot(Bot):
    name = "flaky"

    def decide(self, request) -> int:
        number = int(request.request_id)
        if number % 6 == 3:
            return len(request.options)
        if number % 6 == 0:
            request.request_id = str(number - 1)
        rng = random.Random(f"{request.seat}:{number}")
        return rng.randrange(len(request.options))


if __name__ == "__main__":
    serve(FlakyBot())
