"""A random admiralty bot in plain Python, with no gRPC and no SDK: one JSON request per
line on stdin, one JSON answer per line on stdout.

    admiralty play jamaica --bot "stdio:example_bots/stdio/random_bot.py" \
        --bot example_bots/random_bot.py

Each request is `{"hello": ...}`, `{"decide": ...}` or `{"matchOver": ...}`, in protobuf's
JSON mapping (docs/protocol.md, "Bots without gRPC"). Anything else it prints goes to
stderr: stdout carries answers only.
"""

import json
import random
import sys


def answer(request: dict) -> dict:
    if "hello" in request:
        return {
            "name": "python-stdio-random",
            "version": "1.0",
            "games": ["jamaica", "black_fleet"],
        }
    if "decide" in request:
        decide = request["decide"]
        option = random.choice(decide["options"])  # two or more: the referee asks no less
        return {"requestId": decide["requestId"], "optionIndex": option["index"]}
    return {}  # matchOver: nothing to answer but that it was heard


for line in sys.stdin:
    print(json.dumps(answer(json.loads(line))), flush=True)
