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


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """`--dist loadgroup` keeps the tests of one `xdist_group` on one worker by the group's
    name after an "@" in their node ids. pytest-xdist (3.8) writes that name where pytest 9
    no longer reads it, so each group was split over both workers (the Ray cluster started
    on each); write it where pytest reads it. A worker of an xdist that still does this
    already has the "@" in its ids and is left alone, as is any run without loadgroup."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        groups = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                  for mark in item.iter_markers("xdist_group")}
        if groups and "@" not in item.nodeid:
            from _pytest.nodeid import coerce_node_id

            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(sorted(groups))}")
