"""An adversarial bot process with one chosen fault, written on raw gRPC (not the SDK) so
it can break the protocol in ways the SDK never would.

    python chaos_bot.py --fault FAULT [--after N] [--delay S] [--margin S] [--slow N]

Faults: none (random legal answers), hang (never answers Decide), crash-hello (dies when
asked Hello), crash-decide (dies when asked a seat's --after-th request of a match or a
later one, so a restarted process asked the same request again dies again), crash-over (dies
when told MatchOver), garbage (answers an index far out of range), stale (echoes a 60,000-
character id of another request), huge (echoes a 1 MB id: over the referee's reply limit),
slow-hello (answers Hello after --delay seconds), under-deadline (answers its first --slow
requests of each match and seat --margin seconds before their deadline), big-name (a 3 MB
name in Hello), bounce (at its --after-th decision in all, its server stops while answering
it and listens again on the same port 50 ms later).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random

import grpc

from admiralty_sdk import bot_port
from admiralty_sdk.v1 import bot_pb2, bot_pb2_grpc

FAULTS = (
    "none",
    "hang",
    "crash-hello",
    "crash-decide",
    "crash-over",
    "garbage",
    "stale",
    "huge",
    "slow-hello",
    "under-deadline",
    "big-name",
    "bounce",
)
STALE_ID = "s" * 60_000
HUGE_ID = "h" * 1_000_000
BIG_NAME = "n" * 3_000_000


class ChaosBot(bot_pb2_grpc.BotServiceServicer):
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.fault = args.fault
        self.rng = random.Random(args.seed)
        self.port = bot_port()
        self.server: grpc.aio.Server | None = None
        self.decisions = 0

    async def listen(self) -> None:
        self.server = grpc.aio.server()
        bot_pb2_grpc.add_BotServiceServicer_to_server(self, self.server)
        self.server.add_insecure_port(f"127.0.0.1:{self.port}")
        await self.server.start()

    async def bounce(self) -> None:
        """Stop serving (breaking the calls in flight) and listen again 50 ms later."""
        await self.server.stop(grace=None)
        await asyncio.sleep(0.05)
        await self.listen()

    async def Hello(self, request, context):
        if self.fault == "crash-hello":
            os._exit(5)
        if self.fault == "slow-hello":
            await asyncio.sleep(self.args.delay)
        name = BIG_NAME if self.fault == "big-name" else f"chaos-{self.fault}"
        return bot_pb2.HelloResponse(name=name, version="1")

    async def Decide(self, request, context):
        self.decisions += 1
        index = self.rng.randrange(len(request.options))
        request_id = request.request_id
        if self.fault == "bounce" and self.decisions == self.args.after:
            asyncio.get_running_loop().create_task(self.bounce())
            await asyncio.sleep(30)  # the stop breaks this call; the referee asks again
        elif self.fault == "hang":
            await asyncio.Event().wait()
        elif self.fault == "crash-decide" and int(request.request_id) >= self.args.after:
            os._exit(3)
        elif self.fault == "garbage":
            index = 2**32 - 1
        elif self.fault == "stale":
            request_id = STALE_ID
        elif self.fault == "huge":
            request_id = HUGE_ID
        elif self.fault == "under-deadline" and int(request.request_id) <= self.args.slow:
            await asyncio.sleep(max(0.0, request.deadline_ms / 1000 - self.args.margin))
        return bot_pb2.DecideResponse(request_id=request_id, option_index=index)

    async def MatchOver(self, request, context):
        if self.fault == "crash-over":
            os._exit(4)
        return bot_pb2.MatchOverResponse()


async def main(args: argparse.Namespace) -> None:
    await ChaosBot(args).listen()
    await asyncio.Event().wait()  # until SIGTERM


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fault", choices=FAULTS, required=True)
    parser.add_argument("--after", type=int, default=1)
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--margin", type=float, default=0.3)
    parser.add_argument("--slow", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    arguments, _ = parser.parse_known_args()
    asyncio.run(main(arguments))
