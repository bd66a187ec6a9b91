"""gRPC's own log lines (its C core's, on stderr) stay off the operator's terminal in the
`admiralty` command, unless the operator asks for them with GRPC_VERBOSITY."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

FAILED_BIND = """
import socket, sys
import {imported}
import grpc
with socket.create_server(("127.0.0.1", 0)) as taken:
    server = grpc.server(None, options=[("grpc.so_reuseport", 0)])
    try:
        server.add_insecure_port(f"127.0.0.1:{{taken.getsockname()[1]}}")
    except RuntimeError:
        print("refused", flush=True)
"""
"""Binds a gRPC server to a port in use, which gRPC's core logs as an error."""


@pytest.mark.parametrize(
    ("imported", "verbosity", "logged"),
    [
        ("admiralty.cli", None, False),  # as the command starts
        ("admiralty.grpc_quiet", "ERROR", True),  # the operator's own setting is kept
    ],
)
def test_grpc_logs_only_when_the_operator_asks(imported, verbosity, logged):
    environment = {
        name: value for name, value in os.environ.items() if not name.startswith("GRPC_")
    }
    if verbosity is not None:
        environment["GRPC_VERBOSITY"] = verbosity
    result = subprocess.run(
        [sys.executable, "-c", FAILED_BIND.format(imported=imported)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
    )
    assert result.stdout == "refused\n", result.stderr
    assert ("Failed to add port" in result.stderr) is logged, result.stderr
