"""The committed Python stubs are exactly what proto/generate.py makes from the .proto files."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_generator():
    spec = importlib.util.spec_from_file_location("generate", ROOT / "proto" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_stubs_match_the_protos():
    generator = load_generator()
    fresh = generator.generate()
    committed = {p.name: p.read_text() for p in generator.OUT.iterdir() if p.is_file()}
    stale = sorted(
        name for name in fresh.keys() | committed.keys() if fresh.get(name) != committed.get(name)
    )
    assert not stale, f"stubs out of date, run `python proto/generate.py`: {stale}"
