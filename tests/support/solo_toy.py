"""A one-seat toy game, registered only by the tests that need it: one seat against an
automated opponent, as Blackbeard solitaire is, small enough to reason about.

The seed deals TURNS rows of three cards (-3..3) and a target; each turn the seat picks a
card of the row, and the margin is the sum of its picks minus the target (>= 0 beats the
opponent). The outcome is `Outcome(places=(1,), scores=(margin,))`, the shape the platform
expects of every one-seat game. A bot that always takes the highest card (its option key
is `card:<value>`) beats one that picks at random on every deal, or ties it.

`register()` puts the game in the game registry (with the wire codec of an existing game: its
observation is empty) and a renderer in `admiralty.console`. Run as a script, this file
registers the game and then runs the `admiralty` command line with its arguments; the
referee worker processes of a tournament, started by `spawn`, import it again and so
register it too.
"""

from __future__ import annotations

import operator
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any

from admiralty.games import (
    Event,
    Game,
    GameInfo,
    GameState,
    IllegalAction,
    Option,
    Outcome,
    Request,
    Window,
)
from admiralty.games.info import Actor, OptionSpec

NAME = "solo_toy"
TURNS = 3


class SoloToyState(GameState):
    def __init__(self, seed: int, options: Mapping[str, Any]):
        self.players = 1
        self.rng = random.Random(seed)
        self.rows = [[self.rng.randint(-3, 3) for _ in range(3)] for _ in range(TURNS)]
        bonus = {"easy": -2, "standard": 0, "hard": 2}[options.get("level", "standard")]
        self.target = self.rng.randint(0, 4) + bonus
        self.picks: list[int] = []
        self._setup_events = [Event("dealt", {"target": self.target})]

    def pending(self) -> list[Request]:
        if len(self.picks) == TURNS:
            return []
        row = self.rows[len(self.picks)]
        options = tuple(Option(f"card:{value}", f"take {value}") for value in row)
        return [Request(0, len(self.picks) + 1, Window.TURN, "take_card", "take a card", options)]

    def apply(self, seat: int, index: int) -> list[Event]:
        request = self.request_for(seat)
        if not 0 <= index < len(request.options):
            raise IllegalAction(f"no option {index}")
        value = self.rows[len(self.picks)][index]
        self.picks.append(value)
        return [Event("took", {"seat": seat, "value": value})]

    def outcome(self) -> Outcome | None:
        if len(self.picks) < TURNS:
            return None
        return Outcome((1,), (sum(self.picks) - self.target,))

    def view(self, viewer: int | None) -> dict[str, Any]:
        return {}

    def clone(self) -> SoloToyState:
        twin = SoloToyState.__new__(SoloToyState)
        twin.players, twin.rows, twin.target = 1, [list(r) for r in self.rows], self.target
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.picks = list(self.picks)
        twin._setup_events = list(self._setup_events)
        return twin

    def determinize(self, seat: int, rng: random.Random) -> SoloToyState:
        """The rows after the one on offer are drawn again (the target was dealt openly)."""
        twin = self.clone()
        for row in twin.rows[len(self.picks) + 1 :]:
            row[:] = [rng.randint(-3, 3) for _ in range(3)]
        return twin

    def snapshot(self) -> Any:
        return {"rows": self.rows, "target": self.target, "picks": self.picks}


class SoloToy(Game):
    info = GameInfo(
        NAME,
        "Solo toy",
        1,
        1,
        1,
        False,
        (Window.TURN,),
        automated=(Actor("Crown", (1,), "the rules: a target drawn from the seed"),),
        options=(
            OptionSpec(
                "level",
                str,
                "standard",
                "how high the target is",
                choices=("easy", "standard", "hard"),
            ),
        ),
    )

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> SoloToyState:
        self.check_players(players)
        return SoloToyState(seed, self.resolve_options(options))


class _Renderer:
    """What `admiralty.console.<game>` provides, for --watch and replay."""

    LEGEND = ()
    ROUND_KEY = "round"
    SCORE_NAME = "score"

    @staticmethod
    def describe(event: Mapping[str, Any], names):
        if event["kind"] == "took":
            return f"seat {event['data']['seat']} took {event['data']['value']}"
        return None

    @staticmethod
    def body(view, board, names, width, compact=False):
        return ""

    @staticmethod
    def secrets(view, seat, board):
        return []

    @staticmethod
    def score_parts(view):
        return {}

    @staticmethod
    def header(view, names):
        from rich.text import Text

        return Text("solo toy")

    @staticmethod
    def omniscient(public, seats):
        return public


def register(setitem: Callable[[Any, Any, Any], None] = operator.setitem) -> None:
    """Make `solo_toy` a game of this process; a test passes `monkeypatch.setitem`, so the
    game is gone again after it."""
    from admiralty import games
    from admiralty.wire import codec

    setitem(games._REGISTRY, NAME, "solo_toy:SoloToy")
    setitem(codec.CODECS, NAME, codec.CODECS["jamaica"])
    setitem(sys.modules, f"admiralty.console.{NAME}", _Renderer)


if __name__ in ("__main__", "__mp_main__"):  # the command line, or one of its workers
    register()

if __name__ == "__main__":
    from admiralty.cli import main

    sys.argv[0] = "admiralty"
    main()
