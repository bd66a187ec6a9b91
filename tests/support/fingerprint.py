"""The behaviour of every engine as one hash per game and player count, to show that a
refactoring changed nothing a seat, a spectator or a record could observe.

Each seed is a random game (`random_play.play`); after every answer its digest, its
pending requests, the events the answer caused and every viewer's view (the public one
and each seat's) are hashed. Run it before and after a change and compare:

    python tests/support/fingerprint.py --seeds 300 --out before.json
    python tests/support/fingerprint.py --seeds 300 --out after.json --against before.json

`--against` names every (game, players) whose hash differs and its first differing seeds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from random_play import CASES, play

from admiralty.games.flow import request_json


def seed_hash(game: str, players: int, seed: int) -> str:
    """The hash of one random game, everything observable after every answer."""
    digest = hashlib.sha256()
    for step in play(game, players, seed):
        state = step.state
        digest.update(repr(step.answer).encode())
        observed: dict[str, Any] = {
            "digest": state.digest(),
            "pending": [request_json(request) for request in state.pending()],
            "events": [event.to_json() for event in step.events],
            "views": [state.view(viewer) for viewer in (None, *range(players))],
        }
        digest.update(json.dumps(observed, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16]


def case_hashes(case: tuple[str, int, int]) -> tuple[str, list[str]]:
    game, players, seeds = case
    return f"{game}/{players}", [seed_hash(game, players, seed) for seed in range(seeds)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--out", type=Path, help="write every seed's hash here as JSON")
    parser.add_argument("--against", type=Path, help="an earlier --out to compare with")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    cases = [(game, players, args.seeds) for game, players in CASES]
    with ProcessPoolExecutor(args.workers) as pool:
        result = dict(pool.map(case_hashes, cases))
    for name, seeds in result.items():
        print(f"{name:16} {hashlib.sha256(''.join(seeds).encode()).hexdigest()[:16]}")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))
    if args.against:
        before = json.loads(args.against.read_text())
        changed = {
            name: [
                seed
                for seed, (a, b) in enumerate(zip(seeds, before.get(name, []), strict=False))
                if a != b
            ]
            for name, seeds in result.items()
        }
        for name, seeds in changed.items():
            if seeds:
                print(f"changed: {name}: {len(seeds)} seeds, first {seeds[:5]}")
        if not any(changed.values()):
            print("no change")


if __name__ == "__main__":
    main()
