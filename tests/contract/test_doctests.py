"""The examples in the server's docstrings run as written: every module under
server/admiralty that has one."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import admiralty

ROOT = Path(admiralty.__file__).parent


def modules_with_examples() -> list[str]:
    """Found by reading the source, so collecting imports nothing."""
    names = []
    for path in sorted(ROOT.rglob("*.py")):
        if ">>> " in path.read_text():
            parts = path.relative_to(ROOT.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = modules_with_examples()


def test_the_engines_have_examples():
    assert {
        "admiralty.games",
        "admiralty.games.info",
        "admiralty.games.jamaica",
        "admiralty.games.black_fleet.board",
    } <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_run(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted and not result.failed
