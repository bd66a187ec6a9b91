"""Round trips the referee spends where no choice is needed (target: none but the windows
that must be asked).

Bots that declare INTERRUPT windows auto-pass play Jamaica, Black Fleet and Blackbeard
matches and count what they are asked; the engines' own requests are counted alongside, to
show how many single-option requests and passable interrupts the referee answered by
itself. A single-option request is asked only when it `must_ask` (a window opened whatever
its seat holds, so that the round trip tells nothing, `docs/security.md`) and its bot does
not auto-pass it. Blackbeard polls every other player at each point of every Pirate Action (its
anti-pirate windows), so the share of the engine's requests that are INTERRUPT windows is
printed too, with the round trips per Player Turn (`turn_started` events; games without
Player Turns show "-"), as played and as it would be if the bots answered their passable
interrupts themselves.

    python benchmarks/forced.py [--matches 20] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from collections import Counter

from admiralty.games import GameState, Window
from admiralty.referee import BotClient, MatchSpec, run_match
from admiralty.referee.launcher import free_port
from admiralty.wire import from_window_kind
from admiralty_sdk import Bot, start_server


class CountingBot(Bot):
    """Answers at random and counts the requests it should never have received."""

    name = "counting"
    auto_pass = ("INTERRUPT",)

    def __init__(self, counts: Counter, seed: int):
        self.counts = counts
        self.rng = random.Random(seed)

    def decide(self, request) -> int:
        self.counts["asked"] += 1
        self.counts["asked_single_option"] += len(request.options) == 1
        self.counts["asked_auto_pass_interrupt"] += (
            from_window_kind(request.window) is Window.INTERRUPT and request.optional
        )
        return self.rng.randrange(len(request.options))


def engine_counter(counts: Counter):
    """A referee listener counting what the engine opened, asked or not."""
    seen: set[tuple[int, int, int]] = set()

    def listen(step: int, events, state: GameState) -> None:
        for request in state.pending():
            key = (request.window_id, request.seat, len(request.options))
            if key in seen:
                continue
            seen.add(key)
            counts["engine_requests"] += 1
            counts["engine_single_option"] += len(request.options) == 1
            counts["engine_single_option_must_ask"] += (
                len(request.options) == 1
                and request.must_ask
                and not (request.window is Window.INTERRUPT and request.optional)
            )
            counts["engine_passable_interrupts"] += (
                request.window is Window.INTERRUPT and request.optional
            )
            counts["engine_interrupts"] += request.window is Window.INTERRUPT
            counts["engine_passable_asked"] += (  # were they not auto-passed
                request.window is Window.INTERRUPT
                and request.optional
                and (len(request.options) > 1 or request.must_ask)
            )
        counts["turns"] += sum(event.kind == "turn_started" for event in events)

    return listen


async def measure(game: str, players: int, matches: int) -> Counter:
    counts: Counter = Counter()
    servers, clients = [], []
    for seat in range(players):
        port = free_port()
        servers.append(await start_server(CountingBot(counts, seat), port))
        client = BotClient(f"127.0.0.1:{port}")
        await client.hello()
        clients.append(client)
    try:
        for seed in range(matches):
            report = await run_match(
                MatchSpec(f"{game}-forced-{seed}", game, seed), clients, [engine_counter(counts)]
            )
            counts["round_trips"] += report.round_trips
    finally:
        for client in clients:
            await client.close()
        for server in servers:
            await server.stop(None)
    return counts


def figures(counts: Counter) -> dict[str, float | int | None]:
    """The counts, with the INTERRUPT share of the engine's requests and the round trips
    per Player Turn (None without Player Turns): as played, and as a bot that answers its
    passable interrupts itself would play (each one with a real choice, or that must be
    asked, a round trip)."""
    out: dict[str, float | int | None] = dict(counts)
    requests = counts["engine_requests"]
    out["interrupt_share"] = round(counts["engine_interrupts"] / requests, 4) if requests else 0.0
    turns = counts["turns"]
    out["round_trips_per_turn"] = round(counts["round_trips"] / turns, 2) if turns else None
    out["round_trips_per_turn_without_auto_pass"] = (
        round((counts["round_trips"] + counts["engine_passable_asked"]) / turns, 2)
        if turns
        else None
    )
    return out


GAMES = (("jamaica", 2), ("jamaica", 4), ("black_fleet", 4), ("blackbeard", 4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {
        f"{game}/{players}p": figures(asyncio.run(measure(game, players, args.matches)))
        for game, players in GAMES
    }
    if args.json:
        print(json.dumps(results))
        return
    print(
        f"{'game':16}{'engine reqs':>12}{'1-option':>10}{'must ask':>9}{'passable':>10}"
        f"{'asked':>8}{'asked 1-opt':>12}{'asked pass':>11}{'interrupt %':>12}"
        f"{'trips/turn':>11}{'(no auto-pass)':>15}"
    )
    for name, c in results.items():
        per_turn, unpassed = c["round_trips_per_turn"], c["round_trips_per_turn_without_auto_pass"]
        print(
            f"{name:16}{c.get('engine_requests', 0):>12}{c.get('engine_single_option', 0):>10}"
            f"{c.get('engine_single_option_must_ask', 0):>9}"
            f"{c.get('engine_passable_interrupts', 0):>10}{c.get('asked', 0):>8}"
            f"{c.get('asked_single_option', 0):>12}{c.get('asked_auto_pass_interrupt', 0):>11}"
            f"{100 * c['interrupt_share']:>11.1f}%"
            f"{'-' if per_turn is None else f'{per_turn:.2f}':>11}"
            f"{'-' if unpassed is None else f'{unpassed:.2f}':>15}"
        )
    print(
        "target: asked single-option requests = the must-ask ones (not auto-passed), "
        "0 asked auto-pass interrupts"
    )


if __name__ == "__main__":
    main()
