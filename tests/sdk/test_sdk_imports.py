"""The SDK stands alone: a bot that only plays over gRPC needs `admiralty_sdk`, never the
server. Nothing in it imports `admiralty`, at import time or later inside a function."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import admiralty_sdk

SDK = Path(admiralty_sdk.__file__).parent

IMPORT_ALL = """
import importlib, json, pkgutil, sys
import admiralty_sdk
names = [info.name for info in pkgutil.walk_packages(admiralty_sdk.__path__, "admiralty_sdk.")]
for name in names:
    importlib.import_module(name)
server = sorted(m for m in sys.modules if m == "admiralty" or m.startswith("admiralty."))
print(json.dumps({"imported": names, "server": server}))
"""
"""Imports the SDK and every one of its modules, then lists the server's modules loaded."""


def test_importing_every_sdk_module_loads_nothing_of_the_server():
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL], capture_output=True, text=True, timeout=60, check=True
    )
    loaded = json.loads(result.stdout)
    assert {
        "admiralty_sdk.bot",
        "admiralty_sdk.helpers",
        "admiralty_sdk.black_fleet",
        "admiralty_sdk.v1.bot_pb2",
        "admiralty_sdk.v1.bot_pb2_grpc",
    } <= set(loaded["imported"])
    assert loaded["server"] == []


def test_no_sdk_source_names_the_server():
    named = []
    for path in SDK.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            modules = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            named += [
                f"{path.name}: {module}"
                for module in modules
                if module == "admiralty" or module.startswith("admiralty.")
            ]
    assert named == []
