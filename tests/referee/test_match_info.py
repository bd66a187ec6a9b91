"""The `MatchInfo` a seat is told: each match keeps only its own fields, the board is
serialized once per game, and what a seat receives is the message built field by field."""

from __future__ import annotations

import asyncio

import pytest

from admiralty.games import load_game
from admiralty.referee import InProcessSeat, MatchSpec
from admiralty.referee.match import Match
from admiralty.wire import codec_for, struct
from admiralty_sdk.v1 import bot_pb2, common_pb2


class FirstOption(InProcessSeat):
    """A seat's bot in this process that keeps every request it is sent."""

    def __init__(self, name: str):
        self.name = name
        self.requests: list[bot_pb2.DecideRequest] = []

    async def decide(self, request: bytes, timeout: float) -> bot_pb2.DecideResponse:
        message = bot_pb2.DecideRequest.FromString(request)
        self.requests.append(message)
        return bot_pb2.DecideResponse(request_id=message.request_id, option_index=0)


def built(game: str, names: list[str], options: dict) -> common_pb2.MatchInfo:
    info = common_pb2.MatchInfo(
        game=game,
        players=len(names),
        bot_names=names,
        options=struct(options),
        rules_hash=load_game(game).rules_hash(),
    )
    codec = codec_for(game)
    getattr(info, codec.field).CopyFrom(codec.board_pb(load_game(game).static_info()))
    return info


@pytest.mark.parametrize("game", ["jamaica", "black_fleet", "blackbeard"])
def test_every_seat_is_told_the_match_info_built_field_by_field(game):
    bots = [FirstOption(f"bot-{seat}") for seat in range(3)]
    spec = MatchSpec("info", game, 2, options={"round_cap": 2})
    match = Match(spec, bots)
    expected = built(game, [bot.name for bot in bots], spec.options)
    assert match.match_info.SerializeToString(deterministic=True) == expected.SerializeToString(
        deterministic=True
    )
    asyncio.run(match.run())
    for bot in bots:
        told = [r.match_info for r in bot.requests if r.HasField("match_info")]
        assert told == [expected]
