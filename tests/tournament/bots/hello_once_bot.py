"""A bot that answers the first Hello it is sent, then exits: the launcher reaches it, the
referee workers started after that cannot. Restarted, it exits at once (`--marker` remembers
that it has already answered)."""

import argparse
import asyncio
import os
import sys
from pathlib import Path

import grpc

from admiralty_sdk import bot_port
from admiralty_sdk.v1 import bot_pb2, bot_pb2_grpc


class HelloOnce(bot_pb2_grpc.BotServiceServicer):
    def __init__(self, marker: Path):
        self.marker = marker

    async def Hello(self, request, context):
        self.marker.touch()
        asyncio.get_running_loop().call_later(0.2, os._exit, 0)
        return bot_pb2.HelloResponse(name="hello-once")


async def main(marker: Path) -> None:
    server = grpc.aio.server()
    bot_pb2_grpc.add_BotServiceServicer_to_server(HelloOnce(marker), server)
    server.add_insecure_port(f"127.0.0.1:{bot_port()}")
    await server.start()
    await server.wait_for_termination()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--marker", type=Path, required=True)
    args, _ = parser.parse_known_args()
    if args.marker.exists():
        print("hello-once bot: I have answered my one Hello", file=sys.stderr, flush=True)
        sys.exit(1)
    asyncio.run(main(args.marker))
