"""A bot's command line chooses how it dials in: `--connections N` streams, one by default,
and a count that is no whole number from 1 is one line."""

from __future__ import annotations

import pytest

from admiralty_sdk.connect import dialing_from_argv


@pytest.fixture
def key_file(tmp_path):
    path = tmp_path / "bot.key"
    path.write_text("secret\n")
    return str(path)


def test_connections_default_to_one_and_take_the_flag(key_file):
    dial = ["--dial", "127.0.0.1:50070", "--key-file", key_file]
    assert dialing_from_argv([*dial, "--seed", "3"]).connections == 1
    dialing = dialing_from_argv([*dial, "--connections", "3"])
    assert (dialing.address, dialing.key, dialing.connections) == ("127.0.0.1:50070", "secret", 3)


@pytest.mark.parametrize("count", ["0", "two", "-1", "²"])
def test_a_connection_count_that_is_no_whole_number_is_one_line(count, key_file):
    with pytest.raises(SystemExit) as ended:
        dialing_from_argv(["--dial", "a:1", "--key-file", key_file, "--connections", count])
    assert str(ended.value) == f"--connections {count}: give a whole number from 1"
