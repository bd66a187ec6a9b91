"""The stages of setup and of a turn (black_fleet.md §4-§5), named for the decisions they ask."""

from __future__ import annotations


class Stage:
    """The stages of setup and of a turn, in the order a turn meets them."""

    PLACE = "place_merchant"  # setup, spec §4.1 step 9 (D0)
    REENTER_MERCHANT = "reenter_merchant"  # step 0, spec §5.0 (D1)
    WINDOW = "window"  # a fortune window W0-W3 (reconstruction §3.1)
    REENTER_PIRATE = "reenter_pirate"  # step 0, spec §5.0 (D2)
    PLAY = "play_movement"  # step 1, spec §5.1 (D3)
    CHOOSE_SHIP = "choose_ship"  # step 2, spec §5.2 (D4)
    ACTIVATION = "activation"  # one ship moving and acting (D5, D6)
    TARGET = "choose_target"  # a fortune card's target
    DESTINATION = "choose_destination"  # a fortune card's free move
    CUBE = "choose_cube"  # Letter of Marque: the treasure cube taken
    DRAW = "draw"  # step 3, spec §5.7 (automatic)
    DISCARD = "discard_fortune"  # step 3 discards (D8, D9)
    BUY = "buy"  # step 4, spec §5.8 (D10)
    NAME_PORT = "name_port"  # Trade Charter's port
    END = "end_turn"  # automatic
    OVER = "over"
