"""Jamaica: the rules engine (the rulebook's sections and gaps, cited as [jamaica §6.2] and
[jamaica G19], are indexed in docs/games/jamaica.md; the data: `data/*.toml`).

>>> from admiralty.games import load_game
>>> state = load_game("jamaica").new_game(players=3, seed=1)
>>> state.pending()[0].kind
'place_dice'
"""

from admiralty.games.jamaica.game import Jamaica
from admiralty.games.jamaica.state import JamaicaState

__all__ = ["Jamaica", "JamaicaState"]
