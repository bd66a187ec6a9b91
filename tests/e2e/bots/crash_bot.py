"""A bot that dies on its first decision (a crash the referee must survive)."""

import os
import sys

from admiralty_sdk import Bot, serve


class CrashBot(Bot):
    name = "crash"

    def decide(self, request) -> int:
        print("crash bot: going down", file=sys.stderr, flush=True)
        os._exit(3)


if __name__ == "__main__":
    serve(CrashBot())
