"""The published game's cards and treasures ([jamaica §2, §8, G2, G5]): the data files
hold them, each labelled with its sources, and play follows them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from jamaica_helpers import new, public, round_with

from admiralty.games.jamaica import Jamaica, arrange
from admiralty.games.jamaica.data import DATA_DIR, load
from admiralty.games.provenance import Label, items, read_label

CARDS = {  # the 11 cards of every colour, morning / evening (data/cards.toml)
    1: ("forward", "backward"),
    2: ("backward", "forward"),
    3: ("forward", "forward"),
    4: ("forward", "food"),
    5: ("food", "forward"),
    6: ("forward", "gunpowder"),
    7: ("gold", "forward"),
    8: ("gold", "gold"),
    9: ("gunpowder", "gold"),
    10: ("gunpowder", "food"),
    11: ("food", "gunpowder"),
}
SCORING = {  # the 8 face-down cards and their points (data/treasures.toml)
    "treasure_7a": 7,
    "treasure_7b": 7,
    "treasure_5": 5,
    "treasure_3a": 3,
    "treasure_3b": 3,
    "cursed_2": -2,
    "cursed_3": -3,
    "cursed_4": -4,
}
POWERS = {  # the 4 face-up cards: their effect and its number (treasures.toml)
    "morgans_map": ("hand_size", ("hand_size", 4)),
    "sarans_sabre": ("reroll", ("uses_per_combat", 1)),
    "lady_beth": ("combat_bonus", ("bonus", 2)),
    "sixth_hold": ("extra_hold", None),
}


def test_every_colour_holds_the_eleven_published_cards():
    """[jamaica §2, G2]: the 11 cards, the same in every colour, as the data file lists them."""
    cards = Jamaica().static_info()["cards"]
    assert {c["id"]: (c["morning"], c["evening"]) for c in cards} == CARDS
    state = new(6)
    for ship in state.ships:
        assert sorted(ship.hand + ship.deck) == sorted(CARDS)


@pytest.mark.parametrize("card", sorted(CARDS))
def test_each_card_plays_its_morning_then_its_evening_action(card):
    """[jamaica §5.3, §6]: the card's morning symbol with the morning die (2), then its
    evening symbol with the evening die (1). From port 45, well stocked, nothing is asked."""
    state = new(3)
    arrange.place(state, 0, 45)
    arrange.holds(state, 0, [("food", 20), ("gold", 20), None, None, None])
    events = round_with(state, {0: card}, dice=(2, 1))
    assert actions_of(events, 0) == [(CARDS[card][0], 2), (CARDS[card][1], 1)]


def actions_of(events, ship):
    """What `ship` did, in order: (direction, steps) per move, (kind, count) per load."""
    done = []
    for event in events:
        data = event.data
        if event.audience is not None or data.get("ship") != ship:
            continue
        if event.kind == "moved":
            done.append(("forward" if data["direction"] == 1 else "backward", len(data["path"])))
        elif event.kind == "loaded":
            done.append((data["kind"], data["count"]))
    return done


def test_the_treasure_cards_are_the_published_twelve():
    """[jamaica §8, G5]: 4 powers with their effects, 5 treasures and 3 cursed ones with their
    values."""
    treasures = {t["id"]: t for t in Jamaica().static_info()["treasures"]}
    assert {t: c["value"] for t, c in treasures.items() if c["kind"] != "power"} == SCORING
    assert {t for t, c in treasures.items() if c["kind"] == "cursed"} == {
        "cursed_2",
        "cursed_3",
        "cursed_4",
    }
    data = load().treasures
    for card, (effect, param) in POWERS.items():
        assert (treasures[card]["kind"], treasures[card]["value"]) == ("power", 0)
        assert treasures[card]["effect"] == effect
        assert param is None or data[card].param(param[0]) == param[1]


@pytest.mark.parametrize("card", [*SCORING, *POWERS])
def test_each_treasure_counts_its_value_at_the_end(card):
    """[jamaica §9.2]: a treasure adds its value, a cursed one subtracts; powers score
    nothing. Seat 0 finishes (15, with its 3 doubloons) holding the card."""
    state = new(3)
    arrange.treasure(state, 0, card)
    arrange.place(state, 0, 48)
    events = round_with(state, {0: 3}, dice=(5, 2))
    assert public(events, "game_over")[0]["scores"][0] == 15 + 3 + SCORING.get(card, 0)


DOCS = Path(__file__).parents[2] / "docs" / "games" / "jamaica.md"


def labels() -> dict[str, Label]:
    """The label of every item of every data file, by file and place."""
    found = {}
    for path in sorted(DATA_DIR.glob("*.toml")):
        raw = tomllib.loads(path.read_text())
        found.update(
            {f"{path.name}: {where}": read_label(table, where) for where, table in items(raw)}
        )
    return found


def test_every_item_rests_on_the_tagged_sources():
    """[jamaica G1, G10]: every item is known from public sources, named by the tags the docs
    page defines, with a confidence; only the pre-start score is a proposed default. One
    source (M) backs the track graph, the combat die and the second +3; more back the rest."""
    text = DOCS.read_text()
    tags = set(re.findall(r"\*\*(\w+)\*\*", text[text.index("Sources: **") :].split("\n\n")[0]))
    found = labels()
    for where, label in found.items():
        cited = re.sub(r"\[[^\]]*\]|\([^)]*\)|:.*", "", label.sources)  # tags, not notes
        assert set(re.findall(r"[\w]+", cited)) <= tags, where
        assert label.is_known or label.known == ("port_royal",), where
    track = found.pop("track.toml: top level")
    assert not track.is_known and track.sources == "rulebook [jamaica §3]"
    weak = {where for where, label in found.items() if label.confidence != "H"}
    assert {where.split(" row")[0] for where in weak} == {
        "track.toml: [[space]]",
        "dice.toml: [combat_die]",
        "treasures.toml: [[treasure]]",
    }
    assert "treasures.toml: [[treasure]] row 9 (id = 'treasure_3b')" in weak
    raw = tomllib.loads((DATA_DIR / "track.toml").read_text())
    assert all(space["score_confidence"] == "H" for space in raw["space"])
