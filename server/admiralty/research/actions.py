"""The action space both adapters share, and the turn order they impose on the engines.

An action is the index of an option within the open request (action `i` answers with
option `i`); the legal actions of a seat are `range(len(request.options))`. Option keys
would give actions a meaning that holds across requests, but their vocabulary is
combinatorial (a Jamaica payment names an amount for each hold), so a fixed
key-per-action table would be large, mostly empty and derived from rules code rather
than data. The index is bounded instead, by `ACTION_BOUNDS`; an engine that ever offers
more options raises rather than hiding any.

Several seats may be asked at once (a SEALED window): the adapters ask them one at a
time, lowest seat first, and nobody learns another's answer before the window closes,
since the engine shows no answer until every seat of the window is in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from admiralty.games import GameState, Outcome, Request, Window, load_game
from admiralty_sdk.encoding import ACTION_BOUNDS

# The size of each game's discrete action space (`ACTION_BOUNDS`, in the SDK's
# encoder, which pads a request's options to it), at least the options of any request.
#
# Jamaica: the most ways to pay a space's cost (7) from six holds of at most 6 tokens each
# (the largest die), every other request having fewer. Black Fleet: a ship's move, which
# offers `stop` and one option per space it can reach, at most the board's 86. Both are
# worked out from the engines in tests/research/test_actions.py. Blackbeard: no request
# offered more than 10 options in random play of every player count; the bound leaves
# room for what random play does not reach.

PLAYERS = {"jamaica": range(2, 7), "black_fleet": range(3, 5), "blackbeard": range(2, 6)}
"""The player counts the adapters support: each game's ordinary range (Blackbeard's
solitaire against the Crown, and its 6-10 player variant, are left out)."""

MAX_DECISIONS = 100_000
"""More answers than any game takes (a 60-round Black Fleet game takes ~2,500): the
OpenSpiel game length bound."""


def check_players(game: str, players: int) -> None:
    if game not in PLAYERS:
        raise ValueError(f"unknown game {game!r}; the adapters support {', '.join(PLAYERS)}")
    if players not in PLAYERS[game]:
        span = PLAYERS[game]
        raise ValueError(
            f"the {game} adapters take {span.start} to {span.stop - 1} players, not {players}"
        )


def pairwise_rewards(outcome: Outcome) -> list[float]:
    """Each seat's reward: (seats placed behind it - seats placed ahead of it) / (players - 1).

    From -1 (last alone) to +1 (first alone); tied seats count as neither; the rewards of a
    game always add up to 0, so the games are zero-sum in both adapters."""
    places, others = outcome.places, len(outcome.places) - 1
    return [sum((mine < theirs) - (mine > theirs) for theirs in places) / others for mine in places]


@dataclass
class Table:
    """One game under the adapters' rules: whose decision it is, its legal actions and mask,
    and the rewards at the end. `apply` changes the state; `clone` copies it all."""

    game: str
    players: int
    seed: int
    options: Mapping[str, Any] | None = None
    state: GameState = field(init=False)
    sealed: dict[int, dict[str, Any]] = field(init=False, default_factory=dict)
    """The views of the seats of the SEALED window open now, taken as it opened."""
    asked: Request | None = field(init=False, default=None)
    """The request asked now (`request`): taken from the engine once per answer, since a
    step reads it several times (whose turn, the legal actions, the observation)."""

    def __post_init__(self) -> None:
        check_players(self.game, self.players)
        self.state = load_game(self.game).new_game(self.players, self.seed, self.options)
        self._next()

    @property
    def bound(self) -> int:
        return ACTION_BOUNDS[self.game]

    def request(self) -> Request | None:
        """The open request the adapters ask now (lowest seat first), None at the end."""
        return self.asked

    def seat(self) -> int | None:
        request = self.request()
        return None if request is None else request.seat

    def legal(self, seat: int) -> list[int]:
        """The legal actions of `seat`: none unless it is the one asked now."""
        request = self.request()
        return list(range(len(request.options))) if request and request.seat == seat else []

    def mask(self, seat: int) -> list[int]:
        legal = set(self.legal(seat))
        return [int(action in legal) for action in range(self.bound)]

    def apply(self, action: int) -> list:
        """Answer the request asked now with option `action`; the events it caused."""
        request = self.asked
        if request is None:
            raise ValueError("the game is over")
        events = self.state.apply(request.seat, int(action))
        self.sealed.pop(request.seat, None)
        self._next()
        return events

    def _next(self) -> None:
        """Take the request to ask next from the engine (lowest seat first), and keep the
        views of a SEALED window's seats as it opens: the referee asks them all at once,
        so each decides on the view from before anyone answered, while the engine lets an
        answer show (that the seat has chosen) before the window closes."""
        pending = self.state.pending()
        self.asked = _lowest(pending, self.game)
        if self.sealed:
            return
        window = [r for r in pending if r.window is Window.SEALED]
        if len(window) > 1:
            opened = window[0].window_id
            self.sealed = {r.seat: self.state.view(r.seat) for r in window if r.window_id == opened}

    def view(self, seat: int) -> dict[str, Any]:
        """What `seat` sees now: its view, or, while it is to answer in a SEALED window,
        its view as the window opened."""
        return self.sealed.get(seat) or self.state.view(seat)

    def truncated(self) -> bool:
        """The game was stopped by its round cap rather than ended by its rules."""
        outcome = self.state.view(None).get("outcome") or {}
        return outcome.get("reason") == "round_cap"

    def over(self) -> bool:
        return self.state.outcome() is not None

    def rewards(self) -> list[float]:
        """The final rewards (`pairwise_rewards`), all 0 while the game goes on."""
        outcome = self.state.outcome()
        return [0.0] * self.players if outcome is None else pairwise_rewards(outcome)

    def clone(self) -> Table:
        return self._with(self.state.clone(), dict(self.sealed))

    def determinize(self, seat: int, rng: random.Random) -> Table:
        """A copy as `seat` may imagine it: `state.determinize(seat, rng)` (what the seat
        cannot see and the future chance drawn from `rng`), the seat's own view of an open
        SEALED window kept and the other seats' taken from the sample."""
        state = self.state.determinize(seat, rng)
        sealed = {s: view if s == seat else state.view(s) for s, view in self.sealed.items()}
        return self._with(state, sealed)

    def _with(self, state: GameState, sealed: dict[int, dict[str, Any]]) -> Table:
        copy = object.__new__(Table)
        copy.__dict__.update(self.__dict__, state=state, sealed=sealed)
        copy.asked = _lowest(state.pending(), self.game)
        return copy


def _lowest(pending: list[Request], game: str) -> Request | None:
    """The open request of the lowest seat, None when none is open; one offering more
    options than the game's action space raises rather than hiding any."""
    if not pending:
        return None
    request = pending[0] if len(pending) == 1 else min(pending, key=lambda r: r.seat)
    if len(request.options) > ACTION_BOUNDS[game]:
        raise RuntimeError(
            f"{game} offers {len(request.options)} options, more "
            f"than its action space of {ACTION_BOUNDS[game]} (ACTION_BOUNDS)"
        )
    return request
