"""Every game's data files in one provenance vocabulary (`admiralty.games.provenance`): every
item of every file says what it rests on, the loaders get the values alone, and a wrong or
missing label fails at load time naming the file and the item."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from admiralty.games import provenance
from admiralty.games.provenance import BASES, FIELD_LABELS, LABELS, items, load, read_label

GAMES_DIR = Path(provenance.__file__).parent
FILES = sorted(GAMES_DIR.glob("*/data/*.toml"))
KIT_DOCS = GAMES_DIR.parents[2] / "docs" / "engine-kit.md"
OLD_LABELS = re.compile(r"^(status|\w+_basis|\w+_source|\w+_status)$")


def tables(value: Any) -> list[dict[str, Any]]:
    """Every table at any depth of a parsed file, nested value tables included."""
    if isinstance(value, list):
        return [table for item in value for table in tables(item)]
    if isinstance(value, dict):
        return [value, *(table for inner in value.values() for table in tables(inner))]
    return []


def test_the_three_games_keep_their_eighteen_data_files():
    assert len(FILES) == 18
    assert {path.parts[-3] for path in FILES} == {"jamaica", "black_fleet", "blackbeard"}


@pytest.mark.parametrize("path", FILES, ids=lambda path: f"{path.parts[-3]}/{path.name}")
def test_every_item_carries_the_one_vocabulary(path):
    raw = tomllib.loads(path.read_text())
    found = list(items(raw))
    assert found, f"{path.name} has no items"
    for where, table in found:
        assert read_label(table, f"{path.name}: {where}").basis in BASES
    old = {key for table in tables(raw) for key in table if OLD_LABELS.match(key)}
    assert not old, f"{path.name} still uses labels of another vocabulary: {sorted(old)}"
    values = tables(load(path))
    assert not [key for table in values for key in table if key in LABELS]


def written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "demo.toml"
    path.write_text(text)
    return path


REFUSED = [
    ("[a]\nx = 1\n", 'demo.toml: [a]: missing basis label (basis = "known" or'),
    (
        '[[a]]\nid = 7\nbasis = "guessed"\n',
        'demo.toml: [[a]] row 1 (id = 7): basis \'guessed\' is not "known" or "reconstructed"',
    ),
    (
        'x = 1\nbasis = "known"\n',
        "demo.toml: top level: a known item, or one with known fields, needs sources",
    ),
    (
        '[a]\nx = 1\nbasis = "known"\nsources = "r"\nknown = ["x"]\n',
        "demo.toml: [a]: a known item is known as a whole",
    ),
    (
        '[a]\nx = 1\nbasis = "reconstructed"\nknown = ["y"]\nsources = "r"\n',
        "demo.toml: [a]: known names fields the item does not have: ['y']",
    ),
    (
        '[a]\nx = 1\nbasis = "reconstructed"\nknown = ["x"]\n',
        "demo.toml: [a]: a known item, or one with known fields, needs sources",
    ),
    (
        '[a]\nx = 1\nbasis = "known"\nsources = ""\n',
        "demo.toml: [a]: sources must be a non-empty string",
    ),
    (
        '[a]\nx = 1\nbasis = "known"\nsources = "r"\nconfidence = "high"\n',
        'demo.toml: [a]: confidence \'high\' is not "H", "M" or "L"',
    ),
    (
        '[a]\nx = 1\nbasis = "known"\nsources = "r"\ny_sources = "s"\n',
        "demo.toml: [a]: y_sources labels a field the item does not have",
    ),
    (
        '[a]\nx = 1\nbasis = "known"\nsources = "r"\nx_confidence = "H"\n',
        "demo.toml: [a]: x_confidence grades sources the item does not give",
    ),
    (
        '[a]\nbasis = "known"\nsources = "r"\n[[a.row]]\nn = 1\nnote = "labelled"\n',
        "demo.toml: [[a.row]] row 1 (n = 1): missing basis label",
    ),
]


@pytest.mark.parametrize(("text", "message"), REFUSED, ids=[m[11:40] for _, m in REFUSED])
def test_a_wrong_or_missing_label_is_refused_naming_the_file_and_the_item(tmp_path, text, message):
    with pytest.raises(ValueError) as refused:
        load(written(tmp_path, text))
    assert str(refused.value).startswith(message)


def test_the_loader_gets_the_values_and_value_tables_need_no_labels(tmp_path):
    """A row's own tables (a ship's start holds, a card's parameters) are values of the row;
    a field's labels are left out with the item's."""
    path = written(
        tmp_path,
        'start = 1\nbasis = "reconstructed"\n'
        '[[ship]]\nid = "a"\nholds = [{ kind = "gold", count = 3 }]\n'
        'params = { source = "chosen" }\nbasis = "known"\n'
        'sources = "PYJ"\nconfidence = "M"\nid_sources = "PYJ, OOG"\n'
        'id_confidence = "H"\n',
    )
    assert load(path) == {
        "start": 1,
        "ship": [
            {"id": "a", "holds": [{"kind": "gold", "count": 3}], "params": {"source": "chosen"}}
        ],
    }


def test_the_engine_kit_page_describes_every_label():
    text = KIT_DOCS.read_text()
    section = text.split("## The data and its labels", 1)[1].split("\n## ", 1)[0]
    for key in (*LABELS, *(f"<field>_{label}" for label in FIELD_LABELS), *BASES):
        assert f"`{key}`" in section, key
