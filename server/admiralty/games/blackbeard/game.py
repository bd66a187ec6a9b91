"""The Blackbeard game: its nature as data (`GameInfo`), new games and the static board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from admiralty.games.base import Game, Window
from admiralty.games.blackbeard.data import load
from admiralty.games.blackbeard.options import SPECS, solitaire_options
from admiralty.games.blackbeard.state import BlackbeardState
from admiralty.games.info import Actor, GameInfo

DATA = load()


class Blackbeard(Game):
    """Blackbeard (GMT Games, 2nd edition, 2008): pirate careers in the golden age, 2-5
    players (6-10 in the rules' variant), or one against the Crown (solitaire)."""

    info = GameInfo(
        name="blackbeard",
        title="Blackbeard",
        summary="pirate careers of 1660-1720; solitaire against the Crown",
        min_players=1,
        max_players=DATA.setup.max_players,
        default_players=4,
        hidden_information=True,  # hands, face-down merchants, pools and decks
        windows=(Window.TURN, Window.INTERRUPT, Window.SETUP),
        automated=(
            Actor(
                "the Crown",
                (1,),
                "its fixed priority rules and the seeded dice; no seat is "
                "asked [blackbeard §R19.3, §R19.4]",
            ),
        ),
        options=SPECS,
    )

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> BlackbeardState:
        self.check_players(players)
        resolved = self.resolve_options(options, players)
        return BlackbeardState.new(players, seed, solitaire_options(resolved, players))

    def static_info(self) -> dict[str, Any]:
        """The map, the ports, the Pirate cards, the ship types and the Event titles."""
        near = DATA.neighbours()
        return {
            "areas": [
                {
                    "id": a.id,
                    "number": a.number,
                    "name": a.name,
                    "region": a.region,
                    "neighbours": list(near[a.id]),
                }
                for a in DATA.areas.values()
            ],
            "transits": [
                {"id": t.id, "name": t.name, "neighbours": list(near[t.id])}
                for t in DATA.transits.values()
            ],
            "ports": [
                {
                    "code": p.code,
                    "name": p.name,
                    "areas": list(p.areas),
                    "nation": p.nation,
                    "value": p.value,
                    "defense": p.defense,
                    "pirate_port": p.pirate_port,
                    "naval_base": p.naval_base,
                }
                for p in DATA.ports.values()
            ],
            "pirates": [{"id": p.id, "name": p.name, **p.ratings} for p in DATA.pirates.values()],
            "ship_types": [
                {"id": s.id, "combat": s.combat, "speed": s.speed, "holds": s.holds}
                for s in DATA.ship_types.values()
            ],
            "events": [
                {
                    "number": c.number,
                    "title": c.title,
                    "card_class": c.cls,
                    "actions": c.actions,
                    "key": c.key,
                }
                for c in DATA.events.values()
            ],
        }
