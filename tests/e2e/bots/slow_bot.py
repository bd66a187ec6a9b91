"""A bot that thinks for a tenth of a second before each answer, so a match lasts."""

import asyncio

from admiralty_sdk import Bot, serve


class SlowBot(Bot):
    name = "slow"

    async def decide(self, request) -> int:
        await asyncio.sleep(0.1)
        return 0


if __name__ == "__main__":
    serve(SlowBot())
