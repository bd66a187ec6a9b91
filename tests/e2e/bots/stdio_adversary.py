"""A stdio bot that plays its first option, except for request "3" of a match, where it
does as its arguments say:

- `say [LINE]`: answers LINE (by default, a line that is not JSON);
- `oversize [SIZE]`: answers one line of SIZE bytes (by default 1 MiB);
- `late SECONDS`: answers correctly, but after SECONDS;
- `exit`: says so on stderr and exits with code 3, whichever process is asked.

It says on stderr where it runs.
"""

import json
import os
import sys
import time

MODE, *ARGUMENT = sys.argv[1:]


def misbehave(decide: dict) -> dict | None:
    """The answer to request "3", or None when its line was printed already."""
    if MODE == "say":
        print(ARGUMENT[0] if ARGUMENT else "this is not JSON {", flush=True)
    elif MODE == "oversize":
        print("x" * int(ARGUMENT[0] if ARGUMENT else 2**20), flush=True)
    elif MODE == "late":
        time.sleep(float(ARGUMENT[0]))
        return {"requestId": decide["requestId"], "optionIndex": decide["options"][0]["index"]}
    elif MODE == "exit":
        print("stdio adversary: exiting on request 3", file=sys.stderr, flush=True)
        sys.exit(3)
    return None


print(f"stdio adversary running in {os.getcwd()}", file=sys.stderr, flush=True)
for line in sys.stdin:
    request = json.loads(line)
    if "hello" in request:
        answer = {"name": f"stdio-{MODE}"}
    elif "decide" in request:
        decide = request["decide"]
        answer = {"requestId": decide["requestId"], "optionIndex": decide["options"][0]["index"]}
        if decide["requestId"] == "3":
            answer = misbehave(decide)
    else:
        answer = {}
    if answer is not None:
        print(json.dumps(answer), flush=True)
