"""The Node and C++ example bots build, and play Jamaica and Black Fleet through
`admiralty play` against the Python random bot: every decision of theirs answered, no
incident, and a record that verifies. Each also takes its port where its command puts
`{port}`, and then gets no `--port N` (both bots refuse one beside another port).

Each language is one test that builds its bot once (npm ci into example_bots/node/
node_modules, CMake into example_bots/cpp/build), so under xdist the build runs in one
worker only and never twice at once in the same directory."""

from __future__ import annotations

import pytest
from cli_check import NO_AUTO_PASS, QUICK, assert_conforms
from cli_play import assert_plays
from e2e_helpers import REPO
from toolchains import NODE_INSTALL, require, require_cpp, run

pytestmark = pytest.mark.xdist_group("example_bots_build")  # with test_readme's `make bots`

NODE_DIR = REPO / "example_bots" / "node"
CPP_DIR = REPO / "example_bots" / "cpp"


@pytest.fixture(scope="session")
def node_bot() -> str:
    require(["node", "npm"], NODE_INSTALL)
    run(["npm", "ci", "--no-audit", "--no-fund"], cwd=NODE_DIR)
    return "node example_bots/node/bot.js"


@pytest.fixture(scope="session")
def cpp_bot() -> str:
    require_cpp()
    build = CPP_DIR / "build"
    run(["cmake", "-S", str(CPP_DIR), "-B", str(build)])
    run(["cmake", "--build", str(build), "--parallel", "2"])
    return "example_bots/cpp/build/random_bot"


def test_node_bot_plays_jamaica_and_black_fleet(node_bot, tmp_path):
    """Given its port as its one argument (`{port}`), then with `--port N` appended."""
    assert_plays(f"{node_bot} {{port}}", "node-random", tmp_path, ["jamaica"])
    assert_plays(node_bot, "node-random", tmp_path, ["black_fleet"])
    assert_conforms(node_bot, "node-random", NO_AUTO_PASS, *QUICK)


def test_cpp_bot_plays_jamaica_and_black_fleet(cpp_bot, tmp_path):
    """Told where to listen (`--listen 127.0.0.1:{port}`), then with `--port N` appended."""
    assert_plays(f"{cpp_bot} --listen 127.0.0.1:{{port}}", "cpp-random", tmp_path, ["jamaica"])
    assert_plays(cpp_bot, "cpp-random", tmp_path, ["black_fleet"])
    assert_conforms(cpp_bot, "cpp-random", NO_AUTO_PASS, *QUICK)
