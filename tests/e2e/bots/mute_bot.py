"""A process that never serves Hello: it complains on stderr and sleeps."""

import sys
import time

print("mute bot: cannot find my model file weights.bin", file=sys.stderr, flush=True)
time.sleep(600)
