"""Black Fleet: the rules engine on the reconstructed board and cards.

Rules: the Black Fleet rulebook; data: a reconstruction of the board and cards, carried in
`data/*.toml` with every item labelled known or reconstructed. docs/games/black_fleet.md
indexes both and lists the choices this engine makes where they leave gaps.
"""

from admiralty.games.black_fleet.game import BlackFleet
from admiralty.games.black_fleet.state import BlackFleetState

__all__ = ["BlackFleet", "BlackFleetState"]
