"""The registered game: player counts, variant options and the factory of new states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from admiralty.games.base import Game, Window
from admiralty.games.black_fleet.data import load_data
from admiralty.games.black_fleet.state import BlackFleetState
from admiralty.games.black_fleet.view import static_info
from admiralty.games.info import GameInfo, OptionSpec, round_cap

_SETUP = load_data().setup


class BlackFleet(Game):
    """Black Fleet (Space Cowboys, 2014) on the reconstructed board and cards.

    The two navy ships are no automated actors: the seat that plays a movement card moves
    the navy it names."""

    info = GameInfo(
        name="black_fleet",
        title="Black Fleet",
        summary="pirate captains race to buy the victory card",
        min_players=_SETUP.min_players,
        max_players=_SETUP.max_players,
        default_players=_SETUP.default_players,
        hidden_information=True,  # movement and fortune hands, unbought development cards
        windows=(Window.TURN, Window.SETUP),
        options=(
            OptionSpec(
                "victory_cost",
                int,
                _SETUP.victory_costs[0],
                "the victory card's price: 10 (first games) or 20 (the variant), "
                "per seat for handicap play [black_fleet §11.3]",
                choices=_SETUP.victory_costs,
                per_seat=True,
            ),
            round_cap(
                _SETUP.round_cap,
                "not a rule [black_fleet §11.6]: the game stops after this "
                "round; seats rank by victory card, development cards, doubloons",
            ),
        ),
    )

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> BlackFleetState:
        self.check_players(players)
        resolved = self.resolve_options(options, players)
        costs = resolved["victory_cost"]
        costs = [costs] * players if isinstance(costs, int) else list(costs)
        return BlackFleetState(load_data(), players, seed, costs, resolved["round_cap"])

    def static_info(self) -> dict[str, Any]:
        """The board, the card texts and the rule figures as JSON data."""
        return static_info(load_data())
