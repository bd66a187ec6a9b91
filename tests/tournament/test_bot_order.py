"""The order of --bot does not matter: the same bots and master seed give the same plan
(every match's seats, by bot, and seed) and the same leaderboard, whichever order the bots
were typed in. Played in-process by a backend whose results follow from the seed and who
sits where, so the whole tournament (plan, store, ratings) runs without processes."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from admiralty.referee.match import MatchReport, MatchSpec
from admiralty.tournament import Runner, Settings, Store, leaderboard, new_tournament
from admiralty.tournament.runner import start_tournament

BOTS = ["strong.py", "good.py", "fair.py", "weak.py --seed 2", "weak.py --seed 1"]
STRENGTH = {"strong.py": 30, "good.py": 20, "fair.py": 10}


@dataclass
class SeededReferees:
    """Each seat scores its bot's strength plus noise from the match seed and the bot: the
    result depends on who sits where and on the seed, never on the order of the pool."""

    specs: Sequence[str]

    @property
    def names(self) -> list[str]:
        return [spec.split()[0].removesuffix(".py") for spec in self.specs]

    async def play(self, spec: MatchSpec, seats: Sequence[int]) -> MatchReport:
        scores = [
            STRENGTH.get(self.specs[bot], 0) + _noise(spec.seed, self.specs[bot], seat)
            for seat, bot in enumerate(seats)
        ]
        places = [1 + sum(other > score for other in scores) for score in scores]
        return MatchReport(
            spec,
            [self.names[bot] for bot in seats],
            places,
            scores,
            [],
            [],
            [[] for _ in seats],
            1,
            0,
        )

    async def deaths(self) -> list[int]:
        return [0] * len(self.specs)


def _noise(seed: int, spec: str, seat: int) -> int:
    return hashlib.sha256(f"{seed}:{spec}:{seat}".encode()).digest()[0] % 40


class SeededBackend:
    def referees(
        self, specs: Sequence[str], game: str, matches: int | None, parallel: int | None
    ) -> contextlib.AbstractAsyncContextManager:
        return _yielding(SeededReferees(specs))


@contextlib.asynccontextmanager
async def _yielding(referees: SeededReferees):
    yield referees


def play(tmp_path, bots: list[str], **settings) -> tuple[list, list]:
    """A tournament of `bots` with master seed 9: its plan (id, seed, bot spec per seat)
    and its leaderboard (bot, mu, sigma, games)."""
    store = Store(tmp_path / f"{len(list(tmp_path.iterdir()))}.db", create=True)
    tournament, plan = new_tournament(
        "cup", "jamaica", bots, 3, 2, 9, Settings(records=None, **settings)
    )
    asyncio.run(
        start_tournament(
            store,
            tournament,
            plan,
            Runner.this_process(datetime.now(UTC)),
            1,
            backend=SeededBackend(),
        )
    )
    specs = store.tournament("cup").bot_specs
    planned = [(m.match_id, m.seed, [specs[bot] for bot in m.seats]) for m in store.plan("cup")]
    board = [
        (row.bot, row.skill.mu, row.skill.sigma, row.matches) for row in leaderboard(store, "cup")
    ]
    return planned, board


@pytest.mark.parametrize("settings", [{}, {"matches_per_bot": 9}, {"deals": "duplicate"}])
def test_reversed_or_shuffled_bots_give_the_same_plan_and_leaderboard(tmp_path, settings):
    typed = play(tmp_path, BOTS, **settings)
    assert play(tmp_path, BOTS[::-1], **settings) == typed
    assert play(tmp_path, [BOTS[i] for i in (2, 4, 0, 3, 1)], **settings) == typed
    board = typed[1]
    assert [bot for bot, *_ in board][:3] == ["strong", "good", "fair"]
    assert {bot for bot, *_ in board} == {"strong", "good", "fair", "weak", "weak #2"}


def test_a_bot_entered_twice_with_other_arguments_stays_two_entrants(tmp_path):
    plan, board = play(tmp_path, BOTS)
    seated = {spec for _, _, seats in plan for spec in seats}
    assert {"weak.py --seed 1", "weak.py --seed 2"} <= seated
    assert len(board) == len(BOTS)
