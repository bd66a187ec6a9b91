"""A bot that keeps every byte the referee sends it, for the fair-play tests.

It writes each DecideRequest and MatchOverRequest it receives, and the directory it runs
in, to the file named by its `--out` argument, and always answers the first option.
"""

import argparse
import json
import os
import struct

from admiralty_sdk import Bot, serve

_parser = argparse.ArgumentParser()
_parser.add_argument("--out", required=True)
OUT = _parser.parse_known_args()[0].out


def keep(kind: bytes, payload: bytes) -> None:
    with open(OUT, "ab") as file:
        file.write(kind + struct.pack(">I", len(payload)) + payload)


class SpyBot(Bot):
    name = "spy"

    def __init__(self):
        keep(b"C", json.dumps({"cwd": os.getcwd()}).encode())

    def decide(self, request) -> int:
        keep(b"D", request.SerializeToString())
        return 0

    def on_match_over(self, message) -> None:
        keep(b"M", message.SerializeToString())


if __name__ == "__main__":
    serve(SpyBot())
