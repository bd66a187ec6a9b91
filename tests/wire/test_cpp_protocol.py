"""Every .proto of admiralty.v1 generates C++ that compiles: protoc with grpc_cpp_plugin,
then g++ on each proto's generated .cc files against pkg-config's grpc++ and protobuf.

protoc accepts field names whose generated C++ accessors clash (a repeated `hand` beside a
`hand_size`); only compiling the headers shows it, so every file is compiled for real.
g++ checks each proto's messages and services together, as one translation unit, with
`-fsyntax-only`: such a clash is an error of the declarations, which that check reports
without generating code it would throw away."""

from __future__ import annotations

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


@pytest.mark.parametrize("proto", PROTOS)
def test_generated_sources_compile(generated, proto):
    stem = proto.removesuffix(".proto")
    unit = generated / f"{stem}.both.cc"
    unit.write_text(f'#include "{stem}.pb.cc"\n#include "{stem}.grpc.pb.cc"\n')
    flags = shlex.split(run(["pkg-config", "--cflags", "grpc++", "protobuf"]))
    argv = ["g++", "-std=c++17", "-fsyntax-only", f"-I{generated}", *flags, str(unit)]
    result = subprocess.run(argv, cwd=generated, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{proto}'s C++ does not compile:\n{result.stderr[-4000:]}"
