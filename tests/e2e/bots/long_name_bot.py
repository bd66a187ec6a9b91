"""A bot whose Hello name has N characters (`long_name_bot.py N`, default 100), over the
referee's limit of 64: the referee must refuse it in one short line, and nothing it prints
(the SDK announces the name on stderr) may flood that line."""

import sys

from admiralty_sdk import Bot, run


class LongNameBot(Bot):
    def __init__(self, length: int):
        self.name = "n" * length

    def decide(self, request) -> int:
        return 0


if __name__ == "__main__":
    length = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 100
    run(LongNameBot(length))
