"""The registered game: player range, variant options, new games and the static board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from admiralty.games.base import Game, Window
from admiralty.games.info import Actor, GameInfo, OptionSpec, round_cap
from admiralty.games.jamaica.data import load
from admiralty.games.jamaica.state import JamaicaState
from admiralty.games.jamaica.table import board_of

DATA = load()


class Jamaica(Game):
    """Jamaica (Braff, Cathala, Pauchon; 2007): a pirate race around the island, 2-6 players."""

    info = GameInfo(
        name="jamaica",
        title="Jamaica",
        summary="a pirate race around the island",
        min_players=DATA.min_players,
        max_players=DATA.max_players,
        default_players=DATA.default_players,
        hidden_information=True,  # hands, chosen cards, face-down treasures
        windows=(Window.TURN, Window.INTERRUPT, Window.SEALED),
        automated=(
            Actor(
                "Ghost Ship",
                (DATA.ghost_players,),
                "the Captain; in a combat, the player not fighting it [jamaica G25]",
            ),
        ),
        options=(
            OptionSpec(
                "allow_dump_same_kind",
                bool,
                False,
                "[jamaica G6] a load may empty a hold of its own kind",
            ),
            OptionSpec(
                "give_any_treasure",
                bool,
                False,
                "[jamaica G16] a winner may give a player any card, not only a cursed one",
            ),
            round_cap(200, "not a rule [jamaica §9.5]: the game is scored after this round"),
        ),
    )

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> JamaicaState:
        self.check_players(players)
        return JamaicaState(players, seed, self.resolve_options(options, players))

    @staticmethod
    def board() -> dict[str, Any]:
        """The track as plain data: spaces with kind, cost, score, next and lane."""
        return board_of().static_info()

    def static_info(self) -> dict[str, Any]:
        """Everything fixed for a match, sent once: the track (as `board()`), the cards,
        the treasure cards and the dice faces (numbers, and "star")."""
        return {
            **board_of().static_info(),
            "cards": [
                {"id": c.id, "morning": c.morning, "evening": c.evening}
                for c in DATA.cards.values()
            ],
            "treasures": [
                {"id": t.id, "name": t.name, "kind": t.kind, "value": t.value, "effect": t.effect}
                for t in DATA.treasures.values()
            ],
            "action_die": list(DATA.action_faces),
            "combat_die": list(DATA.combat_faces),
        }
