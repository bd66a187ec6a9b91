"""Adversarial bot processes in `admiralty tournament run --parallel 2`: every planned match
gets a result, each with exactly its faulty seats' incidents, failing seats placed last,
and a record that verifies; bots that die are restarted, then disqualified."""

from __future__ import annotations

import json
from collections import Counter

from chaos_helpers import AFTER_DEATHS, EXPECTED, chaos, kinds_by_fault, run_cli, run_tournament
from e2e_helpers import RANDOM_BOT, REPO

GREEDY = str(REPO / "example_bots" / "jamaica_greedy.py")

IN_MATCH = [
    chaos("hang"),
    chaos("garbage"),
    chaos("stale"),
    chaos("huge"),
    chaos("bounce", "--after", "30"),
    RANDOM_BOT,
]
"""Faults inside a match: each seat's incidents follow from its own bot alone (the
bouncing bot's connection drops once, in whichever match asks its 30th decision)."""
DYING = [
    chaos("crash-decide", "--after", "3"),
    chaos("crash-over"),
    chaos("slow-hello", "--delay", "1"),
    RANDOM_BOT,
]
"""Bots that die (and are restarted, then disqualified) or are slow to start."""
SHORT = ("--option", "round_cap=8")
"""Games scored after round 8: every faulty bot is asked often enough in each match to
show its fault (the bouncing bot, asked some 17-29 times a match, reaches its 30th
decision within the first two matches), in less time than whole games."""


def test_in_match_faults_in_a_parallel_tournament(tmp_path):
    """All six bots at every table, in each of the six seat rotations."""
    matches = run_tournament(tmp_path, IN_MATCH, 6, "--players", "6", "--deadline", "1.5", *SHORT)
    kinds = kinds_by_fault(matches)
    assert {fault: set(counts) for fault, counts in kinds.items()} == {
        fault: EXPECTED[fault].kinds for fault in ("hang", "garbage", "stale", "huge")
    }
    assert kinds["hang"]["timeout"] == 3 * 6  # hung in each match after 3 timeouts


def test_dying_bots_in_a_parallel_tournament_are_restarted_then_disqualified(tmp_path):
    """Each dying bot plays six matches: crash-decide dies in each (a crash, or it is found
    unreachable while restarting), crash-over after each. Restarted twice, each stays dead
    after its third death, so a later match (its fifth starts after three have ended)
    finds it unreachable and places it last. The crash column counts all three deaths, as
    the disqualification does, also crash-over's, which die outside every call."""
    # A deadline a busy machine meets: a crash-decide bot must be seen to die, not be late.
    matches = run_tournament(tmp_path, DYING, 12, "--players", "2", "--deadline", "4")
    kinds = kinds_by_fault(matches, AFTER_DEATHS)
    assert set(kinds) <= {"crash-decide", "crash-over"}  # slow-hello and random: clean
    assert kinds["crash-decide"]["crash"] >= 1 and kinds["crash-decide"]["unreachable"] >= 1
    assert sum(kinds["crash-over"].values()) >= 1
    assert any(
        i["detail"].startswith("disqualified: its process died 3 times")
        for match in matches
        for i in match["incidents"]
    )
    shown = run_cli(
        "tournament", "show", "chaos", "--db", str(tmp_path / "chaos.db"), "--json", cwd=tmp_path
    )
    crashes = {
        row["bot"]: (row["crashes"], row["disqualified"])
        for row in json.loads(shown.stdout)["standings"]
    }
    assert crashes["chaos-crash-decide"] == crashes["chaos-crash-over"] == (3, True)
    assert crashes["chaos-slow-hello"] == crashes["random"] == (0, False)


def test_a_bot_that_dies_at_hello_stops_the_tournament_before_anything_is_stored(tmp_path):
    """Nothing is planned or stored until every bot has said Hello: one error line, and no
    half-made tournament to resume."""
    db = str(tmp_path / "chaos.db")
    result = run_cli(
        "tournament",
        "run",
        "jamaica",
        "--name",
        "chaos",
        "--db",
        db,
        "--json",
        "--bot",
        chaos("crash-hello"),
        "--bot",
        RANDOM_BOT,
        cwd=tmp_path,
    )
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "exited with code 5 when asked Hello" in result.stderr
    shown = run_cli("tournament", "show", "chaos", "--db", db, cwd=tmp_path)
    assert shown.returncode == 1 and "no tournament 'chaos'" in shown.stderr


def test_a_bot_answering_only_invalid_indexes_is_ranked_last(tmp_path):
    """The engine's default moves beat random play, so a bot answering nothing legal used
    to top such a board. Retired from each match as broken, it is placed last in each,
    ranked last, and the leaderboard counts the matches it was retired from."""
    bots = [GREEDY, RANDOM_BOT, chaos("garbage")]
    matches = run_tournament(tmp_path, bots, 3, "--players", "3", *SHORT)
    kinds = kinds_by_fault(matches)  # checks that the broken seat is placed last in each
    assert kinds == {"garbage": Counter(illegal=3 * 3)}
    db = str(tmp_path / "chaos.db")
    shown = json.loads(
        run_cli("tournament", "show", "chaos", "--db", db, "--json", cwd=tmp_path).stdout
    )
    ranked = [(row["bot"], row["broken"]) for row in shown["standings"]]
    assert ranked[-1] == ("chaos-garbage", 3) and [b for _, b in ranked[:2]] == [0, 0]
    table = run_cli("tournament", "show", "chaos", "--db", db, cwd=tmp_path).stdout
    assert table.splitlines()[1].split()[-1] == "broken"
    row = next(line for line in table.splitlines() if "chaos-garbage" in line)
    assert row.split()[0] == "3" and row.split()[-1] == "3"
