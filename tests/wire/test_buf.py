"""The protocol's compatibility is guarded: `buf lint` (Buf's STANDARD and COMMENTS rules)
and `buf breaking` against the released v1 protocol (WIRE_JSON: no field renumbered or
retyped, no number or JSON name reused) pass — and the breaking check does catch a break.

proto/released/admiralty-v1.binpb is the image of the released protocol; `make
proto-release` writes it when a release is cut. Buf comes pinned from npm (proto/package.json).
"""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from toolchains import NODE_INSTALL, require, run

PROTO = Path(__file__).resolve().parents[2] / "proto"
RELEASED = PROTO / "released" / "admiralty-v1.binpb"


@pytest.fixture(scope="session")
def buf() -> str:
    """Buf, installed from the lock file unless it is there already. Each xdist worker
    runs this fixture: a file lock keeps two `npm ci` from writing one folder at once."""
    require(["node", "npm"], NODE_INSTALL)
    binary = PROTO / "node_modules" / ".bin" / "buf"
    installed = PROTO / "node_modules" / ".package-lock.json"
    with open(Path(tempfile.gettempdir()) / "admiralty-proto-npm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        lock_file = PROTO / "package-lock.json"
        if not (
            binary.exists()
            and installed.exists()
            and installed.stat().st_mtime >= lock_file.stat().st_mtime
        ):
            run(["npm", "ci", "--no-audit", "--no-fund"], cwd=PROTO)
    return str(binary)


def buf_run(buf: str, *args: str, cwd: Path = PROTO) -> subprocess.CompletedProcess:
    return subprocess.run([buf, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_protocol_passes_buf_lint(buf):
    result = buf_run(buf, "lint")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_protocol_keeps_compatibility_with_the_released_one(buf):
    result = buf_run(buf, "breaking", "--against", str(RELEASED))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_breaking_check_catches_a_renumbered_field(buf, tmp_path):
    copy = tmp_path / "proto"
    shutil.copytree(PROTO, copy, ignore=shutil.ignore_patterns("node_modules", "released"))
    common = copy / "admiralty" / "v1" / "common.proto"
    text = common.read_text()
    assert "  string key = 2;" in text
    # 6 is free in Option (5 and below are taken or reserved, the oneof starts at 10).
    common.write_text(text.replace("  string key = 2;", "  string key = 6;"))
    result = buf_run(buf, "breaking", "--against", str(RELEASED), cwd=copy)
    assert result.returncode != 0
    assert "Option" in result.stdout and "2" in result.stdout
