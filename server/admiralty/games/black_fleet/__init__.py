"""Black Fleet: the rules engine on the reconstructed board and cards.

Rules: shared/rules/black_fleet.md; data: shared/rules/black_fleet_reconstruction.md,
carried in `data/*.toml`; the choices this engine makes where those leave gaps are
listed in docs/games/black_fleet.md.
"""

from admiralty.games.black_fleet.game import BlackFleet
from admiralty.games.black_fleet.state import BlackFleetState

__all__ = ["BlackFleet", "BlackFleetState"]
