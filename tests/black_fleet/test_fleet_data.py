"""The data files against the reconstruction described in docs/games/black_fleet.md."""

from __future__ import annotations

import re
import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from admiralty.games.black_fleet.data import DATA_DIR, load_data
from admiralty.games.provenance import Label, items, read_label

NEIGHBOURS = Path(__file__).with_name("neighbours.txt")
LAND = Path(__file__).with_name("land.txt")


def test_board_matches_the_reconstruction():
    """[black_fleet §R1]: 86 spaces, 122 edges, the beaches, lairs, navy starts and distant
    seas, and every space's neighbours as listed in neighbours.txt."""
    board = load_data().board
    assert board.size == 86 and sum(map(len, board.neighbours)) == 2 * 122
    assert board.beaches == {14: 3, 40: 5, 44: 2, 45: 6, 50: 4, 59: 2, 83: 5, 84: 3, 85: 3}
    assert board.lairs == (20, 74) and board.navy_start == {"yellow": 36, "purple": 67}
    assert {k: z.entry for k, z in board.zones.items()} == {
        "NW": (1, 12),
        "NE": (11, 21),
        "SW": (73, 82),
        "SE": (81, 86),
    }
    assert board.ports["B"].buys == {"red": 3, "blue": 2, "purple": 2}
    assert max(max(row[1:]) for row in board.distance[1:]) == 20
    listed = re.findall(r"(\d+):([\d,]+)", NEIGHBOURS.read_text())
    assert len(listed) == 86
    for space, near in listed:
        assert sorted(board.neighbours[int(space)]) == sorted(map(int, near.split(",")))


def test_land_matches_the_reconstruction():
    """[black_fleet §R1.2, §R1.3, §R1.9] [checks]: 22 land cells, not counting the 5 port
    cells; with the 86 sea spaces and 4 distant-sea corners they fill the 9 x 13 grid."""
    board = load_data().board
    listed = [(int(r), int(c)) for r, c in re.findall(r"(\d+),(\d+)", LAND.read_text())]
    assert len(listed) == 22 and sorted(board.land) == sorted(listed)
    assert board.size + len(board.land) + len(board.ports) + len(board.zones) == 9 * 13


def test_ports_never_buy_their_own_colour_and_red_sells_everywhere():
    """K4, K6: a port never buys its own colour; red is bought at every other port."""
    board = load_data().board
    for port in board.ports.values():
        assert port.colour not in port.buys and len(port.adjacent) == 3
        assert port.colour == "red" or "red" in port.buys


def test_movement_deck_distribution():
    """[black_fleet §R2.1]: navy 1/2/3 = 14/20/10; icons none 18, draw1 12, draw2 6, discard1 8."""
    cards = load_data().movement.values()
    assert Counter(c.navy for c in cards) == {"yellow": 22, "purple": 22}
    assert Counter(c.navy_move for c in cards) == {1: 14, 2: 20, 3: 10}
    assert Counter(c.pirate for c in cards) == {1: 2, 2: 10, 3: 10, 4: 14, 5: 8}
    assert Counter(c.merchant for c in cards) == {1: 4, 2: 16, 3: 14, 4: 8, 5: 2}
    assert Counter(c.fortune for c in cards) == {"none": 18, "draw1": 12, "draw2": 6, "discard1": 8}


def test_card_counts():
    """K15, K18: 44 fortune cards (MOVE 13, POWER 16, STEAL 6, OBJ 9), 24 development cards."""
    data = load_data()
    assert Counter(c.kind for c in data.fortune.values()) == {
        "move": 13,
        "power": 16,
        "steal": 6,
        "objective": 9,
    }
    assert sorted(data.fortune) == [f"F{i:02}" for i in range(1, 45)]
    assert Counter(c.cost for c in data.development.values()) == {5: 6, 8: 6, 11: 6, 14: 6}


def labels(name: str) -> dict[str, Label]:
    """The label of every item of `name`.toml, by where the item is."""
    raw = tomllib.loads((DATA_DIR / f"{name}.toml").read_text())
    return {where: read_label(table, where) for where, table in items(raw)}


def test_every_item_is_labelled_known_or_reconstructed():
    """[black_fleet §R0.3]: the known facts are labelled known, with their sources; every
    card and the map's layout are reconstructed, with the fields known after all named."""
    board, setup = labels("board"), labels("setup")
    assert board["top level"].is_known  # K1: the goods colours
    assert board["[[ports]] row 2 (key = 'B')"].known == ("name",)  # La Barbaria
    assert not board["[grid]"].is_known and board["[checks]"].known == ("lairs",)
    assert {where for where, label in setup.items() if label.is_known} == {
        "[hands]",
        "[ships]",
        "[rewards]",
        "[purchases]",
    }
    assert setup["[players]"].known == ("min", "max", "default")
    cards = {**labels("movement"), **labels("fortune"), **labels("development")}
    assert len(cards) == 44 + 31 + 24 and not any(label.is_known for label in cards.values())
    title = cards["[[cards]] row 3 (id = 'D05-3')"]  # Pirate Hideout, from a play report
    assert (title.known, title.confidence) == (("title",), "L")


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        (
            "movement.toml",
            'basis = "reconstructed" }',
            'basis = "guessed" }',
            "movement.toml: [[cards]] row 1 (id = 'M01'): basis 'guessed' is not",
        ),
        (
            "setup.toml",
            'basis = "known"\nsources = "[black_fleet §4.1, §5.7]"\n',
            "",
            "setup.toml: [hands]: missing basis label",
        ),
        (
            "board.toml",
            'known = ["name"]',
            'known = ["nmae"]',
            "board.toml: [[ports]] row 2 (key = 'B'): known names fields the item does not have",
        ),
    ],
)
def test_a_bad_label_is_refused_naming_the_file_and_the_item(tmp_path, name, old, new, message):
    with pytest.raises(ValueError) as refused:
        load_data(edited_copy(tmp_path, name, old, new))
    assert str(refused.value).startswith(message)


def edited_copy(tmp_path, name, old, new) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    path = copy / name
    path.write_text(path.read_text().replace(old, new, 1))
    return copy


def test_unknown_card_effects_are_refused(tmp_path):
    copy = edited_copy(tmp_path, "development.toml", 'kind = "sink_bonus"', 'kind = "sink_bonsu"')
    with pytest.raises(ValueError, match="unknown modifier kind 'sink_bonsu'"):
        load_data(copy)


def test_a_board_that_fails_its_checks_is_refused(tmp_path):
    copy = edited_copy(tmp_path, "board.toml", '"4.....#...2#.",', '"4..........#.",')
    with pytest.raises(ValueError, match="board check"):
        load_data(copy)


def test_a_board_that_loses_a_land_cell_is_refused(tmp_path):
    """[checks] land_cells: a mistyped land cell fails at load time, though the sea is
    unchanged."""
    copy = edited_copy(tmp_path, "board.toml", '"D.5###3###3.D",', '"D.5D##3###3.D",')
    with pytest.raises(ValueError, match="board check land_cells: expected 22, grid gives 21"):
        load_data(copy)


def test_a_replacement_deck_is_read_without_code_changes(tmp_path):
    copy = edited_copy(
        tmp_path,
        "movement.toml",
        "navy_move = 3, pirate = 2, merchant = 4",
        "navy_move = 1, pirate = 6, merchant = 4",
    )
    assert load_data(copy).movement["M01"].pirate == 6


def test_every_effect_kind_in_the_data_has_an_interpreter():
    """The effect and condition names the loader accepts are exactly those the code reads."""
    from admiralty.games.black_fleet import cards
    from admiralty.games.black_fleet.data import FORTUNE_EFFECTS, OBJECTIVE_CONDITIONS

    assert set(cards._CAN_PLAY) == set(FORTUNE_EFFECTS)
    assert set(cards._CONDITIONS) == OBJECTIVE_CONDITIONS
