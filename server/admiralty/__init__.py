"""admiralty: a referee and tournament platform for bots playing pirate board games."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("admiralty")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0"
