"""A bot whose every string attacks the operator's terminal: its Hello name and version,
the error it fails the first request of each match with, the request id it echoes for the
second, and its stderr hold `HOSTILE` (an OSC setting the window title, a CSI clearing the
screen, BEL, CR, BS, a C1 CSI, rich markup and a bidi override). It answers the rest with
option 0, on raw gRPC so that nothing between it and the referee cleans its strings.

    python hostile_bot.py [--port N] [--die]

With --die it writes `HOSTILE` on stderr and exits before listening, as a bot failing at
start does.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import grpc

from admiralty_sdk import bot_port
from admiralty_sdk.v1 import bot_pb2, bot_pb2_grpc

HOSTILE = "\x1b]0;owned\x07\x1b[2J\r\b\x9b1m[/]\u202e"


class HostileBot(bot_pb2_grpc.BotServiceServicer):
    async def Hello(self, request, context):
        return bot_pb2.HelloResponse(name=HOSTILE, version=f"1{HOSTILE}", games=["jamaica"])

    async def Decide(self, request, context):
        if request.request_id == "1":
            await context.abort(grpc.StatusCode.INTERNAL, HOSTILE)
        echoed = HOSTILE if request.request_id == "2" else request.request_id
        return bot_pb2.DecideResponse(request_id=echoed, option_index=0)

    async def MatchOver(self, request, context):
        return bot_pb2.MatchOverResponse()


async def main() -> None:
    server = grpc.aio.server()
    bot_pb2_grpc.add_BotServiceServicer_to_server(HostileBot(), server)
    server.add_insecure_port(f"127.0.0.1:{bot_port()}")
    await server.start()
    await server.wait_for_termination()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--die", action="store_true")
    args, _ = parser.parse_known_args()
    if args.die:
        sys.stderr.write(f"starting {HOSTILE}\nmodel {HOSTILE} not found\n")
        sys.exit(3)
    asyncio.run(main())
