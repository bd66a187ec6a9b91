"""Blackbeard (GMT Games, 2nd edition, 2008): the game data and the design options.

The rules engine is not written yet, so the game is not registered. `data.load()` gives the
checked data files of `data/`; `options` declares the game's options. The rules we have
lack the map, the card and counter values, the Event deck, victory and solitaire: those are
a reconstruction, labelled row by row in the data files (docs/games/blackbeard.md).
"""
