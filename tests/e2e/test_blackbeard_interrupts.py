"""Blackbeard's anti-pirate windows over real gRPC: a bot that strikes in the INTERRUPT
windows changes the match.

One deal is played twice by the same three bots on 127.0.0.1, answering everything else
alike; in the first run seat 1 passes every `anti_pirate` window, in the second it takes
the first act offered. Both runs are identical up to seat 1's first act, which the record
shows as an `anti_pirate_act` event with its effects, and the matches end differently.
"""

from __future__ import annotations

import asyncio
import random

from e2e_helpers import ScriptedBot, play

from admiralty.referee.record import read_record

SEED = 11
STRIKER = 1


def chooser(seat: int, strike: bool):
    """Seeded random answers, except in the anti-pirate windows: PASS (option 0), or the
    first act when `strike` (PASS when it is the only option: the window is asked whatever
    the seat holds). A window answer never draws from the generator, so both runs draw the
    same numbers for the same requests until they part."""
    rng = random.Random(seat)

    def choose(request) -> int:
        if request.kind == "anti_pirate":
            if strike:
                return next((o.index for o in request.options if o.key != "pass"), 0)
            return 0
        return rng.randrange(len(request.options))

    return choose


def run(tmp_path, strike: bool) -> tuple[list[dict], object, list[ScriptedBot]]:
    bots = [
        ScriptedBot(f"seat{seat}", chooser(seat, strike and seat == STRIKER)) for seat in range(3)
    ]
    path = tmp_path / ("strike" if strike else "pass") / "bb.jsonl.gz"
    report = asyncio.run(play(bots, game="blackbeard", seed=SEED, record_path=path))
    return list(read_record(path)), report, bots


def test_striking_in_the_anti_pirate_windows_changes_the_match(tmp_path):
    passed, pass_report, pass_bots = run(tmp_path, strike=False)
    struck, strike_report, strike_bots = run(tmp_path, strike=True)
    assert pass_report.incidents == [] and strike_report.incidents == []

    # the striker was offered acts, and only passed, in the first run
    offered = [r for r in pass_bots[STRIKER].requests if r.kind == "anti_pirate"]
    assert offered and all(r.options[0].key == "pass" for r in offered)
    assert not any(
        e["kind"] == "anti_pirate_act" and e["data"]["seat"] == STRIKER
        for e in passed
        if e["t"] == "event"
    )

    # the runs are the same line for line up to the striker's first act
    decisions = [
        [line for line in record if line["t"] == "decision"] for record in (passed, struck)
    ]
    first = next(
        i for i, (a, b) in enumerate(zip(*decisions, strict=False)) if a["index"] != b["index"]
    )
    before, after = decisions[0][first], decisions[1][first]
    assert before["kind"] == after["kind"] == "anti_pirate"
    assert before["seat"] == after["seat"] == STRIKER and before["window"] == "INTERRUPT"
    assert before["index"] == 0 and after["index"] > 0
    step = after["step"]
    assert [line for line in passed if line.get("step", 0) < step and line["t"] == "event"] == [
        line for line in struck if line.get("step", 0) < step and line["t"] == "event"
    ]

    # the act is in the record with its effects, and the match ends differently
    effects = [line for line in struck if line["t"] == "event" and line["step"] == step]
    assert effects[0]["kind"] == "anti_pirate_act"
    assert effects[0]["data"]["seat"] == STRIKER and effects[0]["data"]["point"].startswith("T-")
    assert len(effects) > 1, effects  # the act did something: a roll, a fight, a cancel
    assert [e for e in passed if e["t"] == "event"] != [e for e in struck if e["t"] == "event"]
    assert pass_report.scores != strike_report.scores
    acts = [
        e
        for e in struck
        if e["t"] == "event" and e["kind"] == "anti_pirate_act" and e["data"]["seat"] == STRIKER
    ]
    assert len(acts) == sum(
        1 for r in strike_bots[STRIKER].requests if r.kind == "anti_pirate" and len(r.options) > 1
    )
