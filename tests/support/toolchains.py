"""The native toolchains of the other-language tests, jq for the stdio bot written in it,
and bubblewrap for the bot sandbox. A missing one fails the test with the command that
installs it: these tests prove that bots in other languages work and that the sandbox
holds, so they never skip. `.ci/run` installs the same packages."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

CPP_INSTALL = (
    "sudo apt-get update && sudo apt-get install -y g++ cmake protobuf-compiler-grpc libgrpc++-dev"
)
NODE_INSTALL = "sudo apt-get update && sudo apt-get install -y nodejs npm (or any Node.js 18+)"
JQ_INSTALL = "sudo apt-get update && sudo apt-get install -y jq"
BWRAP_INSTALL = "sudo apt-get update && sudo apt-get install -y bubblewrap"


def require(commands: Sequence[str], install: str) -> None:
    """Fail the test unless every command is on PATH."""
    missing = [command for command in commands if shutil.which(command) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} not found; install with: {install}", pytrace=False)


def require_cpp() -> None:
    """protoc, grpc_cpp_plugin, g++, cmake and the grpc++/protobuf development files."""
    require(["protoc", "grpc_cpp_plugin", "g++", "cmake", "pkg-config"], CPP_INSTALL)
    result = subprocess.run(
        ["pkg-config", "--exists", "--print-errors", "grpc++", "protobuf"],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        pytest.fail(f"{result.stderr.strip()}; install with: {CPP_INSTALL}", pytrace=False)


def run(argv: Sequence[str], cwd: Path | None = None, timeout: float = 600) -> str:
    """Run a build step; its output becomes the failure message if it fails."""
    result = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        pytest.fail(
            f"`{' '.join(map(str, argv))}` failed ({result.returncode}):\n"
            f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}",
            pytrace=False,
        )
    return result.stdout
