"""admiralty: a referee and tournament platform for bots playing pirate board games."""

__version__ = "0.1.0"
"""The one place the version is written: pyproject.toml reads it from here, so a process
knows its version without `importlib.metadata` (a twentieth of a second at every start)."""
