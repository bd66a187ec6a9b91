"""The registered game: player counts, variant options and the factory of new states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from admiralty.games.base import Game
from admiralty.games.black_fleet.data import load_data
from admiralty.games.black_fleet.state import BlackFleetState
from admiralty.games.black_fleet.view import static_info

_SETUP = load_data().setup


class BlackFleet(Game):
    """Black Fleet (Space Cowboys, 2014) on the reconstructed board and cards.

    Options:
      victory_cost  10 (first games), 20 (the variant), or a list with one cost per
                    seat for handicap play (spec §11.3).
      round_cap     the engine's safety cap: the game stops after this many rounds
                    and seats are ranked by victory card, development cards, doubloons.
    """

    name: ClassVar[str] = "black_fleet"
    min_players: ClassVar[int] = _SETUP.min_players
    max_players: ClassVar[int] = _SETUP.max_players
    default_players: ClassVar[int] = _SETUP.default_players
    options: ClassVar[Mapping[str, Any]] = {
        "victory_cost": _SETUP.victory_costs[0],
        "round_cap": _SETUP.round_cap,
    }

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> BlackFleetState:
        self.check_players(players)
        resolved = self.resolve_options(options)
        data = load_data()
        costs = resolved["victory_cost"]
        costs = [costs] * players if isinstance(costs, int) else list(costs)
        if len(costs) != players or not set(costs) <= set(data.setup.victory_costs):
            raise ValueError(
                f"victory_cost must be one of {data.setup.victory_costs} or one per seat"
            )
        cap = resolved["round_cap"]
        if not isinstance(cap, int) or cap < 1:
            raise ValueError("round_cap must be a positive number of rounds")
        return BlackFleetState(data, players, seed, costs, cap)

    def static_info(self) -> dict[str, Any]:
        """The board, the card texts and the rule figures as JSON data."""
        return static_info(load_data())
