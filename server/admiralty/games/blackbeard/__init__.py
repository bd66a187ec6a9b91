"""Blackbeard (GMT Games, 2nd edition, 2008): the game data, the design options and the
engine (`Blackbeard`, registered as "blackbeard"; its messages are in
proto/admiralty/v1/blackbeard.proto).

The rules we have lack the map, the card and counter values, the Event deck, victory and
solitaire: those are a reconstruction, labelled row by row in the data files
(docs/games/blackbeard.md).
"""

from admiralty.games.blackbeard.game import Blackbeard
from admiralty.games.blackbeard.state import BlackbeardState

__all__ = ["Blackbeard", "BlackbeardState"]
