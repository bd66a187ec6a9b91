"""Redaction over the wire (DESIGN invariant 4): the DecideRequest bytes a seat receives do
not change when what that seat cannot see changes (other hands, sealed choices, face-down
treasures, deck orders, the RNG)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from admiralty.referee.match import Match, MatchSpec

HERE = Path(__file__).resolve().parent


def _jamaica_redaction():
    """The Jamaica engine's own perturbation helpers (tests/jamaica/test_jamaica_redaction.py)."""
    path = HERE.parent / "jamaica" / "test_jamaica_redaction.py"
    spec = importlib.util.spec_from_file_location("jamaica_redaction", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REDACTION = _jamaica_redaction()


def request_bytes(match: Match, state, seat: int) -> bytes:
    """What the referee would send `seat` for its open request in `state`."""
    match.state = state
    stats = match.seats[seat]
    stats.informed = True  # the static match info is the same for every position
    request = state.request_for(seat)
    return match._request(request, "1", 1, stats, timeout=2.0)


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 12), (5, 13)])
def test_a_seats_request_bytes_ignore_everything_it_cannot_see(players, seed):
    bots = [SimpleNamespace(name=f"b{i}") for i in range(players)]
    match = Match(MatchSpec("wire-redaction", "jamaica", seed), bots)
    rng = random.Random(seed)
    compared = 0
    for state, request, _ in REDACTION.positions(players, seed):
        if request is None:
            break
        for seat in {r.seat for r in state.pending()}:
            twin = REDACTION.perturb(state, seat, rng, everything=True)
            assert request_bytes(match, twin, seat) == request_bytes(match, state, seat)
            compared += 1
    assert compared > 50
