"""Black Fleet over real gRPC: bot processes play a match to the end, and no seat is ever
sent another seat's hand (DESIGN.md invariants 4-6)."""

from __future__ import annotations

import asyncio
import random

from e2e_helpers import RANDOM_BOT, REPO, ScriptedBot, play

from admiralty.referee import MatchSpec, launch_all, run_match, stop_all, verify_record

GREEDY_BOT = str(REPO / "example_bots" / "black_fleet_greedy.py")
HIDDEN_EVENT_FIELDS = {"cards"}  # movement_drawn, fortune_drawn, development_dealt (private)


def test_the_greedy_bot_and_two_random_bot_processes_play_a_match_to_the_end(tmp_path):
    record = tmp_path / "bf.jsonl.gz"

    async def main():
        bots = await launch_all([GREEDY_BOT, RANDOM_BOT, f"{RANDOM_BOT} --seed 1"])
        try:
            spec = MatchSpec("black-fleet-e2e", "black_fleet", 4, record_path=record)
            return await run_match(spec, [bot.client for bot in bots])
        finally:
            await stop_all(bots)

    report = asyncio.run(main())
    assert report.bot_names[0] == "black-fleet-greedy"
    assert report.incidents == [] and report.forfeited == []
    assert sorted(report.places)[0] == 1 and len(report.places) == 3
    assert report.places[0] == 1  # deterministic: the greedy bot wins this seed
    assert report.round_trips > 0
    assert verify_record(record).ok


def seeded_random(seed: int):
    rng = random.Random(seed)
    return lambda request: rng.randrange(len(request.options))


def test_a_seat_is_never_sent_another_seats_hand():
    bots = [ScriptedBot(f"b{i}", seeded_random(i)) for i in range(3)]
    report = asyncio.run(play(bots, game="black_fleet", seed=6, options={"round_cap": 6}))
    assert report.incidents == []
    for seat, bot in enumerate(bots):
        private = [e for r in bot.requests for e in r.events if list(e.audience) == [seat]]
        assert {e.kind for e in private} >= {"development_dealt", "movement_drawn"}
        assert bot.requests and bot.requests[0].HasField("match_info")
        assert bot.requests[0].match_info.WhichOneof("board") == "black_fleet"
        for request in bot.requests:
            assert request.seat == seat
            assert request.WhichOneof("observation") == "black_fleet"
            observation = request.black_fleet
            assert observation.viewer == seat
            for other in observation.seats:
                if other.seat == seat:
                    assert len(other.movement_hand) == other.movement_cards_held
                    assert len(other.fortune_hand) == other.fortune_cards_held
                    assert all(card.HasField("card") for card in other.development)
                    continue
                assert list(other.movement_hand) == [] and list(other.fortune_hand) == []
                assert all(card.HasField("card") == card.bought for card in other.development)
            for event in request.events:
                assert list(event.audience) in ([], [seat])
                if HIDDEN_EVENT_FIELDS & set(event.data.keys()):
                    assert event.data["seat"] == seat, event
