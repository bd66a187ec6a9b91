"""Every .proto of admiralty.v1 generates C++ that compiles: protoc with grpc_cpp_plugin,
then g++ on each generated .cc against pkg-config's grpc++ and protobuf.

protoc accepts field names whose generated C++ accessors clash (a repeated `hand` beside a
`hand_size`); only compiling the headers shows it, so each file is compiled for real."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from toolchains import require_cpp, run

PROTO_ROOT = Path(__file__).resolve().parents[2] / "proto"
PROTOS = sorted(
    p.relative_to(PROTO_ROOT).as_posix() for p in PROTO_ROOT.glob("admiralty/v1/*.proto")
)
SOURCES = [
    proto.removesuffix(".proto") + suffix
    for proto in PROTOS
    for suffix in (".pb.cc", ".grpc.pb.cc")
]


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """The C++ code of every .proto, messages and services, in a fresh directory."""
    require_cpp()
    out = tmp_path_factory.mktemp("cpp")
    run(
        [
            "protoc",
            f"-I{PROTO_ROOT}",
            f"--cpp_out={out}",
            f"--grpc_out={out}",
            f"--plugin=protoc-gen-grpc={shutil.which('grpc_cpp_plugin')}",
            *PROTOS,
        ],
        cwd=PROTO_ROOT,
    )
    return out


@pytest.mark.parametrize("source", SOURCES)
def test_generated_source_compiles(generated, source):
    flags = shlex.split(run(["pkg-config", "--cflags", "grpc++", "protobuf"]))
    argv = ["g++", "-std=c++17", "-c", f"-I{generated}", *flags, source, "-o", os.devnull]
    result = subprocess.run(argv, cwd=generated, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{source} does not compile:\n{result.stderr[-4000:]}"
