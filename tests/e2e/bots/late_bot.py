"""A bot that thinks for a second over its second request of each match and seat (past a
half-second deadline), and answers at once otherwise."""

import asyncio
import random

from admiralty_sdk import Bot, serve


class LateBot(Bot):
    name = "late"
    games = ("jamaica",)

    async def decide(self, request) -> int:
        if request.request_id == "2":
            await asyncio.sleep(1.0)
        rng = random.Random(f"{request.match_id}:{request.seat}:{request.request_id}")
        return rng.randrange(len(request.options))


if __name__ == "__main__":
    serve(LateBot())
