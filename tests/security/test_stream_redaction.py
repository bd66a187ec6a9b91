"""Stream-level redaction (docs/security.md): twin matches that differ only in what one
seat cannot see, and receive the same public decisions, send that seat byte-identical
DecideRequest (and, when nothing is revealed before the end, MatchOver) streams through
the real referee — ids, window numbers and event steps included — and make the same
calls: the same seats asked in the same order, as many times, so that no seat can time
what another holds (a window opened whatever its seat holds costs a round trip even with
PASS alone).

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
from dataclasses import dataclass

import pytest
from twins import Twins, twin_states

from admiralty.referee import InProcessSeat
from admiralty.referee.match import Match, MatchSpec
from admiralty_sdk.v1 import bot_pb2


class Beyond(Exception):
    """The match went past the horizon: the rest may legitimately differ."""


class TwinBot(InProcessSeat):
    """An in-process bot: answers with the twins' public decision rule, and keeps the bytes
    of what its seat is sent while the match is within the horizon, and every call made
    to any seat then (`calls`: the seat, and the request's kind when it has one option)."""

    def __init__(
        self,
        seat: int,
        twins: Twins,
        horizon: int,
        sent: list[bytes] | None,
        calls: list[tuple[int, str]],
    ):
        self.name = f"bot{seat}"
        self.twins, self.horizon, self.sent, self.calls = twins, horizon, sent, calls
        self.match: Match | None = None

    async def decide(self, request, timeout):
        message = bot_pb2.DecideRequest.FromString(request)
        if self.match.steps > self.horizon:
            raise Beyond
        self.calls.append((message.seat, message.kind if len(message.options) == 1 else ""))
        if self.sent is not None:
            self.sent.append(message.SerializeToString(deterministic=True))
        state = self.match.state
        request = next(r for r in state.pending() if r.seat == message.seat)
        return bot_pb2.DecideResponse(
            request_id=message.request_id, option_index=self.twins.choose(state, request)
        )

    async def match_over(self, message, timeout):
        if self.sent is not None and self.match.steps <= self.horizon:
            self.sent.append(message.SerializeToString(deterministic=True))


@dataclass
class Refereed:
    """What refereeing one twin showed within the horizon."""

    sent: list[bytes]
    """The observer's messages."""
    calls: list[tuple[int, str]]
    """Every seat's calls in order: the seat, and the kind of a single-option request."""
    ended: bool
    """Whether the match ended within the horizon (then its MatchOver is the last sent)."""


def referee_twin(twins: Twins, state, horizon: int) -> Refereed:
    """Referee `state` with the twins' decision rule up to the horizon."""
    sent: list[bytes] = []
    calls: list[tuple[int, str]] = []
    bots = [
        TwinBot(seat, twins, horizon, sent if seat == twins.observer else None, calls)
        for seat in range(state.players)
    ]
    match = Match(
        MatchSpec("twins", twins.game, 0),
        bots,
        wire_id="twin-match",
        state=state.clone(),
        clock=lambda: 0.0,
    )
    for bot in bots:
        bot.match = match
    try:
        asyncio.run(match.run())
    except Beyond:
        return Refereed(sent, calls, False)
    return Refereed(sent, calls, match.steps <= horizon)


ASKED_WITH_PASS_ALONE = {
    ("jamaica", 0): {"loot"},
    ("black_fleet", 0): {"play_fortune"},
    ("blackbeard", 1): {"anti_pirate", "choose_card", "skull_and_crossbones"},
}
"""Windows opened whatever their seat holds that these seeds' twins ask with a single
option (Jamaica's spoils, Black Fleet's Pickpocket window, Blackbeard's anti-pirate polls,
card phase and roll point): a referee that answered them itself would have asked one twin
more often than the other."""


@pytest.mark.parametrize("game", ["jamaica", "black_fleet", "blackbeard"])
@pytest.mark.parametrize("seed", range(4))
def test_a_seat_cannot_tell_twin_matches_apart_by_what_it_is_sent_or_when(game, seed):
    single = assert_twins_look_alike(game, seed)
    assert ASKED_WITH_PASS_ALONE.get((game, seed), set()) <= single


@pytest.mark.soak
@pytest.mark.parametrize("game", ["jamaica", "black_fleet", "blackbeard"])
def test_many_more_twin_matches_look_alike(game):
    """The same over ADMIRALTY_SOAK_TWINS more seeds (each: the named cases and 3 random
    pairs); CI runs a few, `ADMIRALTY_SOAK_TWINS=200 pytest -m soak` many."""
    for seed in range(4, 4 + int(os.environ.get("ADMIRALTY_SOAK_TWINS", "3"))):
        assert_twins_look_alike(game, seed)


def assert_twins_look_alike(game: str, seed: int) -> set[str]:
    """Check every twin pair of `seed`; the kinds of the single-option requests asked."""
    compared, single = 0, set()
    for twins in twin_states(game, seed):
        horizon = twins.horizon()
        a = referee_twin(twins, twins.a, horizon)
        b = referee_twin(twins, twins.b, horizon)
        assert a.sent == b.sent, f"{twins.name}: the observer's streams differ"
        assert [seat for seat, _ in a.calls] == [seat for seat, _ in b.calls], (
            f"{twins.name}: the seats asked, their order or their round trips differ"
        )
        compared += len(a.sent)
        single |= {kind for _, kind in a.calls + b.calls if kind}
        if a.ended:  # nothing revealed before the end: MatchOver was compared too
            assert bot_pb2.MatchOverRequest.FromString(a.sent[-1]).seat == twins.observer
    assert compared > 0
    return single
