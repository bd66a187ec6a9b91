"""The Node example bot, as the arena's tests start it."""

from __future__ import annotations

import pytest
from e2e_helpers import REPO
from toolchains import NODE_INSTALL, require, run

NODE_DIR = REPO / "example_bots" / "node"


@pytest.fixture(scope="session")
def node_bot() -> list[str]:
    """Its command; npm ci first (a test using it shares test_other_languages' xdist
    group, so the install never runs twice at once)."""
    require(["node", "npm"], NODE_INSTALL)
    run(["npm", "ci", "--no-audit", "--no-fund"], cwd=NODE_DIR)
    return ["node", str(NODE_DIR / "bot.js")]
