"""The greedy Blackbeard example bot, as its own process, against random bots over gRPC."""

from __future__ import annotations

import asyncio
import sys

from e2e_helpers import RANDOM_BOT, REPO

from admiralty.referee import MatchSpec, launch_all, run_match, stop_all
from admiralty.referee.record import read_record

GREEDY_BOT = str(REPO / "example_bots" / "blackbeard_greedy.py")
SEEDS = (1, 2)


def test_the_greedy_bot_plays_two_random_bots_cleanly_strikes_and_beats_them(tmp_path):
    """Six fixed-seed 3-player matches, the greedy bot in every seat: no incidents, mostly
    won, and it acts in the anti-pirate windows (an `anti_pirate_act` of its seat).

    The bots and the engine are deterministic, so the results are the same every run (in
    the 201-game tournament of its docstring the greedy bot wins about 90% of games)."""

    async def main():
        bots = await launch_all([GREEDY_BOT, RANDOM_BOT, f"{RANDOM_BOT} --seed 1"])
        try:
            played = []
            for seed in SEEDS:
                for greedy_seat in range(3):
                    seats = [bots[1].client, bots[2].client]
                    seats.insert(greedy_seat, bots[0].client)
                    path = tmp_path / f"{seed}-{greedy_seat}.jsonl.gz"
                    spec = MatchSpec(
                        f"greedy-{seed}-{greedy_seat}", "blackbeard", seed, record_path=path
                    )
                    played.append((greedy_seat, path, await run_match(spec, seats)))
            return played
        finally:
            await stop_all(bots)

    played = asyncio.run(main())
    acts = 0
    for greedy_seat, path, report in played:
        assert report.incidents == []
        assert report.forfeited == []
        assert report.bot_names[greedy_seat] == "blackbeard-greedy"
        acts += sum(
            1
            for line in read_record(path)
            if line["t"] == "event"
            and line["kind"] == "anti_pirate_act"
            and line["data"]["seat"] == greedy_seat
        )
    assert acts > 0
    wins = sum(report.places[seat] == 1 for seat, _, report in played)
    assert wins > len(played) // 2


def test_the_same_request_gets_the_same_answer():
    """No randomness: two bots fed the same requests (every seat's, in-process) answer
    alike."""
    sys.path.insert(0, str(REPO / "example_bots"))
    try:
        from blackbeard_greedy import BlackbeardGreedy
    finally:
        sys.path.remove(str(REPO / "example_bots"))
    from admiralty.games import load_game
    from admiralty.wire import codec_for
    from admiralty.wire.codec import options_to_pb, to_window_kind
    from admiralty_sdk.v1 import bot_pb2, common_pb2

    game, codec = load_game("blackbeard"), codec_for("blackbeard")
    info = common_pb2.MatchInfo(game="blackbeard", players=3, rules_hash=game.rules_hash())
    info.blackbeard.CopyFrom(codec.board_pb(game.static_info()))
    state = game.new_game(3, 7, {})
    bots = [BlackbeardGreedy(), BlackbeardGreedy()]
    answers: list[list[int]] = [[], []]
    for step in range(300):
        request = state.pending()[0]
        message = bot_pb2.DecideRequest(
            request_id="1",
            match_id="m",
            seat=request.seat,
            window_id=request.window_id,
            window=to_window_kind(request.window),
            kind=request.kind,
            prompt=request.prompt,
            optional=request.optional,
            options=options_to_pb(codec, request.options),
            blackbeard=codec.observation_pb(state.view(request.seat)),
        )
        if step == 0:
            message.match_info.CopyFrom(info)
        for bot, run in zip(bots, answers, strict=True):
            if step == 0:
                bot.on_match_start(message)
            run.append(bot.decide(message))
        assert 0 <= answers[0][-1] < len(request.options)
        state.apply(request.seat, answers[0][-1])
        if state.outcome() is not None:
            break
    assert answers[0] == answers[1]
