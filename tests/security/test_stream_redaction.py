"""Stream-level redaction (docs/security.md): twin matches that differ only in what one
seat cannot see, and receive the same public decisions, send that seat byte-identical
DecideRequest (and, when nothing is revealed before the end, MatchOver) streams through
the real referee — ids, window numbers and event steps included.

The twins come from tests/support/twins.py: the named rare cases (a Jamaica fight won by a
seat holding a cursed or an ordinary face-down treasure; a Black Fleet fortune window
opened for Pickpocket or for an objective; a Blackbeard roll point whose Skull and
Crossbones window opens whether the acting seat holds the card or not) and random positions
with other hands, face-down cards, deck orders and the undrawn RNG dealt again (Blackbeard:
early, middle and late in 2-5 player games, other Event and Pirate hands, face-down
merchants with the merchant pool, the Event and Pirate decks, the chance seed). The
comparison runs for as long as the rules reveal nothing of the difference
(`Twins.horizon`).
"""

from __future__ import annotations

import asyncio
import os

import pytest
from twins import Twins, twin_states

from admiralty.referee.match import Match, MatchSpec
from admiralty_sdk.v1 import bot_pb2


class Beyond(Exception):
    """The match went past the horizon: the rest may legitimately differ."""


class TwinBot:
    """An in-process bot: answers with the twins' public decision rule, and keeps the bytes
    of what its seat is sent while the match is within the horizon."""

    auto_pass = frozenset()
    absent = ""

    def __init__(self, seat: int, twins: Twins, horizon: int, sent: list[bytes] | None):
        self.name = f"bot{seat}"
        self.twins, self.horizon, self.sent = twins, horizon, sent
        self.match: Match | None = None

    async def decide(self, message, timeout):
        if self.match.steps > self.horizon:
            raise Beyond
        if self.sent is not None:
            self.sent.append(message.SerializeToString(deterministic=True))
        state = self.match.state
        request = next(r for r in state.pending() if r.seat == message.seat)
        return bot_pb2.DecideResponse(request_id=message.request_id,
                                      option_index=self.twins.choose(state, request))

    async def match_over(self, message, timeout):
        if self.sent is not None and self.match.steps <= self.horizon:
            self.sent.append(message.SerializeToString(deterministic=True))


def observer_stream(twins: Twins, state, horizon: int) -> tuple[list[bytes], bool]:
    """What the observer is sent when `state` is refereed; and whether the match ended
    within the horizon (then its MatchOver is the last message)."""
    sent: list[bytes] = []
    bots = [TwinBot(seat, twins, horizon, sent if seat == twins.observer else None)
            for seat in range(state.players)]
    match = Match(MatchSpec("twins", twins.game, 0), bots, wire_id="twin-match",
                  state=state.clone(), clock=lambda: 0.0)
    for bot in bots:
        bot.match = match
    try:
        asyncio.run(match.run())
    except Beyond:
        return sent, False
    return sent, match.steps <= horizon


@pytest.mark.parametrize("game", ["jamaica", "black_fleet", "blackbeard"])
@pytest.mark.parametrize("seed", range(4))
def test_a_seat_cannot_tell_twin_matches_apart_by_what_it_is_sent(game, seed):
    assert_twins_look_alike(game, seed)


@pytest.mark.soak
@pytest.mark.parametrize("game", ["jamaica", "black_fleet", "blackbeard"])
def test_many_more_twin_matches_look_alike(game):
    """The same over ADMIRALTY_SOAK_TWINS more seeds (each: the named cases and 3 random
    pairs); CI runs a few, `ADMIRALTY_SOAK_TWINS=200 pytest -m soak` many."""
    for seed in range(4, 4 + int(os.environ.get("ADMIRALTY_SOAK_TWINS", "6"))):
        assert_twins_look_alike(game, seed)


def assert_twins_look_alike(game: str, seed: int) -> None:
    compared = 0
    for twins in twin_states(game, seed):
        horizon = twins.horizon()
        sent_a, ended = observer_stream(twins, twins.a, horizon)
        sent_b, _ = observer_stream(twins, twins.b, horizon)
        assert sent_a == sent_b, f"{twins.name}: the observer's streams differ"
        compared += len(sent_a)
        if ended:  # nothing revealed before the end: MatchOver was compared too
            assert bot_pb2.MatchOverRequest.FromString(sent_a[-1]).seat == twins.observer
    assert compared > 0
