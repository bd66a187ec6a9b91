"""The examples in the engine's docstrings run as written."""

from __future__ import annotations

import doctest

import pytest

from admiralty.games.black_fleet import board, data, scenario


@pytest.mark.parametrize("module", [board, data, scenario])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted and not result.failed
