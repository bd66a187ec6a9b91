"""The greedy Jamaica example bot, as its own process, against the random bot over gRPC."""

from __future__ import annotations

import asyncio

from e2e_helpers import RANDOM_BOT, REPO

from admiralty.referee import MatchSpec, launch_all, run_match, stop_all

GREEDY_BOT = str(REPO / "example_bots" / "jamaica_greedy.py")
SEEDS = (1, 2, 3)


def test_the_greedy_bot_plays_the_random_bot_cleanly_and_beats_it():
    """Six fixed-seed 2-player matches, both seatings: no incidents, and mostly won.

    Both bots and the engine are deterministic, so the results are the same every run
    (in the 200-game tournament the greedy bot wins about 99% of games)."""

    async def main():
        bots = await launch_all([GREEDY_BOT, RANDOM_BOT])
        try:
            played = []
            for seed in SEEDS:
                for greedy_seat in (0, 1):
                    seats = [bots[1].client, bots[1].client]
                    seats[greedy_seat] = bots[0].client
                    spec = MatchSpec(f"greedy-{seed}-{greedy_seat}", "jamaica", seed)
                    played.append((greedy_seat, await run_match(spec, seats)))
            return played
        finally:
            await stop_all(bots)

    played = asyncio.run(main())
    for greedy_seat, report in played:
        assert report.incidents == []
        assert report.forfeited == []
        assert report.bot_names[greedy_seat] == "jamaica-greedy"
        assert sorted(report.places)[0] == 1
    wins = sum(report.places[seat] == 1 for seat, report in played)
    assert wins > len(played) // 2
