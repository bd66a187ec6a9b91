"""Fixtures every test shares."""

from __future__ import annotations

import signal

import pytest


@pytest.fixture(scope="session", autouse=True)
def ctrl_c_is_heard():
    """Tests press Ctrl-C (SIGINT) on the commands they start. A test run started in the
    background of a non-interactive shell (`nohup make test &`) inherits SIGINT ignored,
    and so would every command it starts; restore the default so they hear it."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
