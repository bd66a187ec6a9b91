"""Blackbeard's options: the reconstruction's 25 design options, the rules' own optional
rules, and a safety stop, declared as `OptionSpec`s (checked by `GameInfo.resolve`).

The reconstruction lists 25 choices that noticeably change play (design options 1-25,
docs/games/blackbeard.md). Twenty-one are options a host sets when a game starts. Four are
really a swap of data (another port table, other pirate ratings, other warship and KC
values, another deck): they are made by editing a data file, so `DESIGN` names the file in
their place. Where a data file holds an option's default (the copies of a card, a track's
end, a Net Worth rate), the default is read from it, so correcting the file corrects the
default too. In solitaire the difficulty level (option 24) also sets option 8 unless the
host turns option 8 off (`solitaire_options`).

>>> OPTIONS["general_pardon_copies"].default, OPTIONS["general_pardon_copies"].choices
(3, (1, 2, 3, 4))
>>> OPTIONS["solitaire_level"].choices
('easy', 'standard', 'hard')
>>> [design.key for design in DESIGN if design.spec is None]
['port_table', 'pirate_ratings', 'warship_values', 'deck_composition']
>>> deck_for({"new_governors_mpi": False}).by_class()["MPI"]
9
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from admiralty.games.blackbeard.data import Deck, GameData, load
from admiralty.games.info import OptionSpec, round_cap

_DATA = load()


@dataclass(frozen=True)
class DesignOption:
    """One of the reconstruction's 25 design options: an `OptionSpec`, or for a swap of
    data the file where it is made instead (`data_file`)."""

    number: int
    key: str
    spec: OptionSpec | None = None
    data_file: str = ""


def _including(default: int, *alternatives: int) -> tuple[int, ...]:
    """The alternatives the reconstruction names, and whatever the data file says."""
    return tuple(sorted({default, *alternatives}))


def _spanning(default: int, low: int, high: int) -> tuple[int, int]:
    return min(low, default), max(high, default)


_PARDONS = _DATA.card("general_pardon").copies
_SIGHTINGS = _DATA.card("warship_sighting").copies
_SUNK = _DATA.tracks["speed"].sunk or 0  # the loader makes sure the Speed track has one
_LEVELS = tuple(_DATA.setup.solitaire_levels)

DESIGN: tuple[DesignOption, ...] = (
    DesignOption(
        1,
        "and_card_counts_as_actions_card",
        OptionSpec(
            "and_card_counts_as_actions_card",
            bool,
            True,
            "An Actions AND Event card is the turn's one Actions card (rule 17.12); false "
            "follows rule 4.4 C3: more Actions, faster play",
        ),
    ),
    DesignOption(
        2,
        "general_pardon_copies",
        OptionSpec(
            "general_pardon_copies",
            int,
            _PARDONS,
            "General Pardon cards in the deck; the 3rd drawn in all ends the game (rule 4.1). "
            "1: one copy, shuffled back into the rest of the deck after each draw. Sets the "
            "game's length (3 copies: about 66 + players cards drawn)",
            choices=_including(_PARDONS, 1, 2, 3, 4),
        ),
    ),
    DesignOption(
        3,
        "pirate_port_retirement_rate",
        OptionSpec(
            "pirate_port_retirement_rate",
            int,
            _DATA.victory.pirate_port_doubloons_per_vp,
            "Doubloons of Net Worth per VP when a pirate retires in a Pirate Port (18.41 A); "
            "100 drops the penalty, so Letters of Marque, Safe Havens, bribes and the Pardon "
            "matter less",
            choices=_including(_DATA.victory.pirate_port_doubloons_per_vp, 100, 200),
        ),
    ),
    DesignOption(
        4,
        "net_worth_per_vp",
        OptionSpec(
            "net_worth_per_vp",
            int,
            _DATA.victory.doubloons_per_vp,
            "Doubloons of Net Worth per VP on every other retirement (18.3): wealth against "
            "Notoriety",
            bounds=_spanning(_DATA.victory.doubloons_per_vp, 50, 200),
        ),
    ),
    DesignOption(
        5,
        "bribe_retirement",
        OptionSpec(
            "bribe_retirement",
            str,
            "standard",
            "Retiring by bribe at a Pro-Pirate port (18.41 D2): standard = 1d6, 1-2 the "
            "Governor refuses, else the roll x 500 doubloons; cheap = the roll x 100 (a Safe "
            "Haven's price), never refused",
            choices=("standard", "cheap"),
        ),
    ),
    DesignOption(
        6,
        "safe_haven_retirement_automatic",
        OptionSpec(
            "safe_haven_retirement_automatic",
            bool,
            False,
            "Retiring at one's Safe Haven (18.41 D1) is automatic and free; false: an attempt, "
            "1d6 of 1 the Governor stalls, else the roll x 200 doubloons",
        ),
    ),
    DesignOption(
        7,
        "ap_vp_awards",
        OptionSpec(
            "ap_vp_awards",
            str,
            "standard",
            "VP for anti-pirate successes (18.12 D-F): standard = half a KC's Combat when a "
            "pirate beats it, 1 per hit of a warship that wins (+ half the NP if it sinks him), "
            "half the NP of a pirate who surrenders; none; doubled",
            choices=("standard", "none", "doubled"),
        ),
    ),
    DesignOption(
        8,
        "option_2_4_plus2",
        OptionSpec(
            "option_2_4_plus2",
            bool,
            True,
            "Rule 2.4's optional rule, recommended as standard: +2 to every warship and KC "
            "combat roll. In solitaire the level sets it (easy: off) unless this is false",
        ),
    ),
    DesignOption(
        9,
        "crew_loyalty_max",
        OptionSpec(
            "crew_loyalty_max",
            int,
            _DATA.tracks["loyalty"].high,
            "The top of the Crew Loyalty track: 12 makes a crew immune to Mutiny Conspiracy "
            "(2d6 above Loyalty), 9 raises the risk",
            choices=_including(_DATA.tracks["loyalty"].high, 9, 10, 12),
        ),
    ),
    DesignOption(
        10,
        "sunk_positions",
        OptionSpec(
            "sunk_positions",
            int,
            _SUNK,
            "Where Sunk lies on the Speed track (Combat's Sunk is 0; rule 6.25): how many "
            "storm hits a ship survives",
            choices=_including(_SUNK, -4, -3, -2),
        ),
    ),
    DesignOption(
        11,
        "map_extra_edges",
        OptionSpec(
            "map_extra_edges",
            bool,
            True,
            "The map with the reconstructed Central America-South America edge; false leaves "
            "it out (East Africa-India stays: it is India's only link)",
        ),
    ),
    DesignOption(12, "port_table", data_file="ports.toml"),
    DesignOption(13, "pirate_ratings", data_file="pirates.toml"),
    DesignOption(14, "warship_values", data_file="ships.toml"),
    DesignOption(15, "deck_composition", data_file="events.toml"),
    DesignOption(
        16,
        "warship_sighting_copies",
        OptionSpec(
            "warship_sighting_copies",
            int,
            _SIGHTINGS,
            "Warship Sighting cards in the deck: the main anti-pirate weapon, and the best "
            "3-Action card",
            bounds=_spanning(_SIGHTINGS, 5, 10),
        ),
    ),
    DesignOption(
        17,
        "scurvy_tick",
        OptionSpec(
            "scurvy_tick",
            str,
            "owner_turns",
            "When Scurvy (card 18) costs its further Crew Loyalty -1: at the start of each of "
            "the owner's Player Turns, or of every Player Turn",
            choices=("owner_turns", "every_turn"),
        ),
    ),
    DesignOption(
        18,
        "skull_and_crossbones_bonus",
        OptionSpec(
            "skull_and_crossbones_bonus",
            str,
            "plus2_cunning",
            "Skull and Crossbones (card 19): +2 to a roll for 1 Cunning point; +1 for 1 "
            "Cunning point; or +2 at no cost",
            choices=("plus2_cunning", "plus1_cunning", "plus2_free"),
        ),
    ),
    DesignOption(
        19,
        "heavy_guns",
        OptionSpec(
            "heavy_guns",
            str,
            "plus1_minus1",
            "Heavy Guns (card 8): +1 to rolls with the ship's Combat and -1 to its evasion "
            "rolls; +1 only; or no effect",
            choices=("plus1_minus1", "plus1", "none"),
        ),
    ),
    DesignOption(
        20,
        "lom_acquisition",
        OptionSpec(
            "lom_acquisition",
            str,
            "issuing_port",
            "Where Letter of Marque (card 12) is gained: In Port at a port of the issuing "
            "nation, with no Attack History against it; or anywhere, for any European nation",
            choices=("issuing_port", "anywhere"),
        ),
    ),
    DesignOption(
        21,
        "hurricane_destroy_on",
        OptionSpec(
            "hurricane_destroy_on",
            str,
            "six",
            "Hurricane (card 9) destroys the struck national port on a 1d6 of 6; never",
            choices=("six", "never"),
        ),
    ),
    DesignOption(
        22,
        "new_governors_mpi",
        OptionSpec(
            "new_governors_mpi",
            bool,
            True,
            "New Governors (card 15) is Must Play Immediately, two Governors placed by d66; "
            "false: an Anti-Pirate card (1 Action OR Event) played at the announcement of an "
            "In-Port Action at a national port, placing one Governor there and one by d66",
        ),
    ),
    DesignOption(
        23,
        "piratical_ambition_requires_free_slot",
        OptionSpec(
            "piratical_ambition_requires_free_slot",
            bool,
            True,
            "Piratical Ambition (card 17) needs its player below his pirate limit (rule 5.14); "
            "false: the challenger may exceed it",
        ),
    ),
    DesignOption(
        24,
        "solitaire_level",
        OptionSpec(
            "solitaire_level",
            str,
            "standard",
            "Solitaire difficulty (the Crown's AP Actions per turn, KCs, Threat Row, the VP "
            "target): "
            + ", ".join(
                f"{level.key} {level.ap_budget}/{level.kc_limit}/{level.threat_row}/"
                f"{level.vp_target}"
                for level in _DATA.setup.solitaire_levels.values()
            )
            + "; easy also turns option 8 off",
            choices=_LEVELS,
        ),
    ),
    DesignOption(
        25,
        "tie_breaks",
        OptionSpec(
            "tie_breaks",
            str,
            "standard",
            "A tie for the most VP: standard = the most VP from Net Worth, then the most "
            "pirates retired, then the highest NP of one pirate, then shared; shared = a "
            "shared victory at once",
            choices=("standard", "shared"),
        ),
    ),
)
"""The reconstruction's design options 1-25, in its order."""

RULES: tuple[OptionSpec, ...] = (
    OptionSpec(
        "game_length",
        str,
        "standard",
        "Rule 4.1: standard ends on the 3rd General Pardon drawn; long keeps the "
        "General Pardons out of the first pass through the deck (about twice as long)",
        choices=("standard", "long"),
    ),
    OptionSpec(
        "cunning",
        bool,
        True,
        "Rule 12.0, optional as a whole: each pirate's Cunning re-rolls, and its cost "
        "for Skull and Crossbones",
    ),
    OptionSpec(
        "pirate_selection",
        str,
        "deal",
        "Rule 3.0 step 6: Pirate cards dealt at random, or drafted in snake order",
        choices=("deal", "draft"),
    ),
    OptionSpec(
        "initial_placement",
        str,
        "open",
        "Rule 3.0 step 7: pirates placed in Player Order, written down secretly and "
        "revealed together, or each by d66",
        choices=("open", "secret", "random"),
    ),
    OptionSpec(
        "pirate_redraw",
        bool,
        True,
        "Rule 2.7, 6-10 players (one pirate each at a time): a Pirate card just drawn "
        "by Action K may be put back, the deck shuffled and another drawn, for 10 VP "
        "to every other player; false: a drawn card is kept",
    ),
)
"""The rules' own optional rules (those not among the design options)."""

ROUND_CAP = round_cap(
    200,
    "not a rule: the game has no rounds and ends on the 3rd General "
    "Pardon (rule 4.1); it is scored as ended (18.5) after this many "
    "rounds of Player Turns",
)

SPECS: tuple[OptionSpec, ...] = (
    *(design.spec for design in DESIGN if design.spec is not None),
    *RULES,
    ROUND_CAP,
)
"""Every option, for the game's `GameInfo`."""

OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in SPECS}

for _spec in SPECS:  # a default read from a data file must be one the option takes
    if not _spec.accepts(_spec.default, None):
        raise ValueError(
            f"option {_spec.name}: its default {_spec.default!r} is not "
            f"{_spec.takes()} (check the data files)"
        )


def solitaire_options(
    resolved: Mapping[str, Any], players: int, data: GameData | None = None
) -> dict[str, Any]:
    """The options of a game of `players`: alone, option 8 (+2 to warship and KC rolls) at
    its default follows the level of option 24, and set off it stays off at every level
    [blackbeard §R19.7]. "Set explicitly" is read from the value, not from the presence
    of the key: the platform resolves a host's options to the defaults before a game
    starts, so a default given and a default filled in look the same, and a game must
    not depend on the path its options took.

    >>> solitaire_options({"solitaire_level": "easy", "option_2_4_plus2": True}, 1)
    {'solitaire_level': 'easy', 'option_2_4_plus2': False}
    >>> solitaire_options({"solitaire_level": "hard", "option_2_4_plus2": False}, 1)
    {'solitaire_level': 'hard', 'option_2_4_plus2': False}
    """
    out = dict(resolved)
    if players == 1:
        level = (data or _DATA).setup.solitaire_levels[out["solitaire_level"]]
        out["option_2_4_plus2"] = bool(out["option_2_4_plus2"]) and level.option_2_4
    return out


def deck_for(options: Mapping[str, Any] | None = None, data: GameData | None = None) -> Deck:
    """The Event deck a game with `options` uses: design options 2, 16 and 22 change one
    table of `data`, and its totals are counted from it."""
    data = data or _DATA
    chosen = {**{spec.name: spec.default for spec in SPECS}, **(options or {})}
    copies = {
        "general_pardon": chosen["general_pardon_copies"],
        "warship_sighting": chosen["warship_sighting_copies"],
    }
    replaced = []
    if not chosen["new_governors_mpi"]:
        replaced.append(
            dataclasses.replace(
                data.card("new_governors"),
                cls="AP",
                play="HUP",
                actions=1,
                timing=("T-ANN",),
                when="T-ANN of an In-Port Action of the Active Pirate at a national port with no "
                "Anti-Pirate Governor",
                effect="One Anti-Pirate Governor is placed there (ousting as rule 9.24) and one "
                "more by d66.",
            )
        )
    return data.deck(copies, replaced)
