"""Process-level faults against a referee in this process: replies far over the size
limit, and a bot process that keeps dying under the launcher's supervision."""

from __future__ import annotations

import asyncio
import gzip
import json

from chaos_helpers import chaos, check_match, check_record, rss_kb
from e2e_helpers import RANDOM_BOT

from admiralty.referee import MatchSpec, launch_all, run_match, stop_all
from admiralty.referee.launcher import MAX_CRASHES


def incidents(report) -> list[dict]:
    return [incident.to_json() for incident in report.incidents]


SHORT = {"round_cap": 2}


def test_megabyte_replies_are_oversize_and_the_referee_keeps_none_of_them(tmp_path):
    """Hundreds of 1 MB replies are refused by the channel: the referee's memory after
    them is what it was before (a kept reply would add a megabyte each). The huge bot is
    retired after three in a row, so each match is cut short after its second round."""

    async def main():
        bots = await launch_all([chaos("huge"), RANDOM_BOT])
        try:
            clients = [bot.client for bot in bots]
            await run_match(MatchSpec("warm-up", "jamaica", 0), clients)
            before, oversize, seed = rss_kb(), 0, 0
            while oversize < 200:
                seed += 1
                record = tmp_path / f"m{seed}.jsonl.gz"
                report = await run_match(
                    MatchSpec(f"huge-{seed}", "jamaica", seed, SHORT, record_path=record), clients
                )
                kinds = check_match(["huge", "none"], report.places, incidents(report))
                assert set(kinds) == {"oversize"}
                oversize += kinds["oversize"]
                check_record(record)
            return rss_kb() - before
        finally:
            await stop_all(bots)

    growth_kb = asyncio.run(main())
    assert growth_kb < 20 * 1024  # against 200 MB refused


def test_a_dying_bot_is_restarted_on_its_port_then_disqualified(tmp_path):
    """It dies at its second request of every match. Restarted on the same port, it
    answers its first request of the next match; after its third death it stays dead and
    its next seat is unreachable from the start, and placed last."""

    async def main():
        bots = await launch_all([chaos("crash-decide", "--after", "2"), RANDOM_BOT])
        dying = bots[0]
        pids = {dying.process.pid}
        dying.on_crash = lambda bot: pids.add(bot.process.pid)
        address = dying.client.address
        reports = []
        try:
            for seed in range(1, 6):
                record = tmp_path / f"m{seed}.jsonl.gz"
                spec = MatchSpec(f"dying-{seed}", "jamaica", seed, deadline=4.0, record_path=record)
                reports.append(await run_match(spec, [bot.client for bot in bots]))
                if dying.disqualified:
                    break
            # the last match was the first one it was disqualified in, or it died in it
            disqualified_in = len(reports)
            spec = MatchSpec("after", "jamaica", 9, record_path=tmp_path / "after.jsonl.gz")
            reports.append(await run_match(spec, [bot.client for bot in bots]))
            return reports, disqualified_in, pids, address, dying
        finally:
            await stop_all(bots)

    reports, disqualified_in, pids, address, dying = asyncio.run(main())
    assert dying.crashes == MAX_CRASHES and len(pids) == MAX_CRASHES
    assert dying.client.address == address == f"127.0.0.1:{dying.port}"
    assert dying.process.poll() is not None  # not restarted after the third death
    assert "disqualified" in dying.disqualified
    *crashed, after = reports
    for report in crashed:
        assert check_match(["crash-decide", "none"], report.places, incidents(report)) == {
            "crash": 1
        }
        assert report.incidents[0].request_id == "2"
        check_record(report.spec.record_path)
    assert 2 <= len(crashed) == disqualified_in <= MAX_CRASHES
    # a restarted process answered the first request of the second match
    lines = [json.loads(line) for line in gzip.open(crashed[1].spec.record_path, "rt")]
    first = next(
        line
        for line in lines
        if line["t"] == "decision" and line["seat"] == 0 and line["how"] != "forced"
    )
    assert (first["request_id"], first["how"]) == ("1", "bot")
    (unreachable,) = after.incidents
    assert (unreachable.kind, unreachable.request_id, unreachable.seat) == ("unreachable", "", 0)
    assert "disqualified" in unreachable.detail
    assert after.places == [2, 1] and after.forfeited == [0]
    check_record(after.spec.record_path)
