"""The registered game: player range, variant options, new games and the static board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from admiralty.games.base import Game
from admiralty.games.jamaica.data import load
from admiralty.games.jamaica.state import JamaicaState, board_of

DATA = load()


class Jamaica(Game):
    """Jamaica (Braff, Cathala, Pauchon; 2007): a pirate race around the island, 2-6 players."""

    name = "jamaica"
    min_players = DATA.min_players
    max_players = DATA.max_players
    default_players = DATA.default_players
    options: ClassVar[Mapping[str, Any]] = {
        "allow_dump_same_kind": False,
        "give_any_treasure": False,
        "round_cap": 200,
    }
    """allow_dump_same_kind: G6, may a load empty a hold of its own kind (default no).
    give_any_treasure: G16, may a winner give a player any card, not only a cursed one.
    round_cap: a safety stop, not a rule (rules 9.5): the game ends after this round."""

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> JamaicaState:
        self.check_players(players)
        resolved = self.resolve_options(options)
        for flag in ("allow_dump_same_kind", "give_any_treasure"):
            if not isinstance(resolved[flag], bool):
                raise ValueError(f"jamaica option {flag} must be true or false")
        cap = resolved["round_cap"]
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise ValueError("jamaica option round_cap must be a positive integer")
        return JamaicaState(players, seed, resolved)

    @staticmethod
    def board() -> dict[str, Any]:
        """The track as plain data: spaces with kind, cost, score, next and lane."""
        return board_of().static_info()

    def static_info(self) -> dict[str, Any]:
        """Everything fixed for a match, sent once: the track (as `board()`), the cards,
        the treasure cards and the dice faces (numbers, and "star")."""
        return {
            **board_of().static_info(),
            "cards": [{"id": c.id, "morning": c.morning, "evening": c.evening}
                      for c in DATA.cards.values()],
            "treasures": [{"id": t.id, "name": t.name, "kind": t.kind, "value": t.value,
                           "effect": t.effect} for t in DATA.treasures.values()],
            "action_die": list(DATA.action_faces),
            "combat_die": list(DATA.combat_faces),
        }
