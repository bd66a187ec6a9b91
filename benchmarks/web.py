"""How fast the web viewer answers for a long recorded match, per game.

For each game, `--tries` matches between random bots are played in-process (the referee's
own `Match`, recorded) and the longest kept; then, through the web app in-process:

  first page   the match page with frame 0 inlined, its record not yet re-derived (the
               time a visitor waits for the first board), then again from the cache
  seat page    the same as a seat (the operator's eye view), not yet re-derived
  chunk        one API request of 50 frames (boards drawn on each request), the mean over
               chunks spread over the match, and per frame
  log          every frame without its board (the viewer's whole log)
  export       `replay --export` of the match: seconds and the page's bytes

With `--browser`, Debian's Chromium (through Playwright) also opens the match from a real
`admiralty web` process, as a visitor would:

  board_ms     from navigation start to the first paint: frame 0's board is in the page
  ready_ms     until the viewer's script answers keys (the whole log fetched)
  step_ms      one step forward by key until its board is drawn and painted: the median
               and the worst over the first 200 steps (chunk fetches included)
  seek_ms      a jump by slider to the middle of the match, its chunk not yet fetched
  export_ms    the exported page, opened from disk, until it answers keys (every frame
               unzipped)

    python benchmarks/web.py                        # every game, 4 seats (Blackbeard 3)
    python benchmarks/web.py --game black_fleet --tries 3 --json
    python benchmarks/web.py --browser                # and in Chromium
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from admiralty.games import GAMES
from admiralty.referee.local import load_bot, run_local
from admiralty.referee.match import MatchSpec, checked_options
from admiralty.web.app import create_app
from admiralty.web.config import WebConfig
from admiralty.web.export import write_export
from admiralty.web.frames import _replay

RANDOM_BOT = Path(__file__).resolve().parents[1] / "example_bots" / "random_bot.py"
PLAYERS = {"jamaica": 4, "black_fleet": 4, "blackbeard": 3}
TOKEN = "benchmark"
CHUNK = 50


def longest_match(game: str, players: int, seed: int, tries: int, folder: Path) -> tuple[str, int]:
    """Record `tries` matches of random bots in `folder`; the id and decisions of the
    longest (the others are deleted)."""
    kept: tuple[str, int] = ("", -1)
    for offset in range(tries):
        bots = [load_bot(str(RANDOM_BOT)) for _ in range(players)]
        for index, bot in enumerate(bots):
            bot.seed = index  # type: ignore[attr-defined]
        match_id = f"{game}-{seed + offset}"
        path = folder / f"{match_id}.jsonl.gz"
        options = checked_options(game, players, {})
        spec = MatchSpec(match_id, game, seed + offset, options, record_path=path)
        decisions = len(asyncio.run(run_local(spec, bots)).decisions)
        if decisions > kept[1]:
            if kept[0]:
                (folder / f"{kept[0]}.jsonl.gz").unlink()
            kept = (match_id, decisions)
        else:
            path.unlink()
    return kept


def timed(call) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


STEP = """async (count) => {
  const board = document.getElementById("board");
  const painted = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  const drawn = async () => {
    while (board.classList.contains("loading")) await new Promise((d) => setTimeout(d, 1));
    await painted();
  };
  const times = [];
  for (let step = 0; step < count; step += 1) {
    const started = performance.now();
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
    await drawn();
    times.push(performance.now() - started);
  }
  const seek = document.getElementById("seek");
  const started = performance.now();
  seek.value = String(Math.floor(Number(seek.max) / 2));
  seek.dispatchEvent(new Event("input"));
  await drawn();
  return { times, seek: performance.now() - started };
}"""
READY = "() => document.getElementById('viewer').dataset.ready === 'true'"


def in_browser(records: Path, page_path: str, export: Path) -> dict[str, Any]:
    """The browser's figures (see the module's docstring) for one recorded match."""
    from playwright.sync_api import sync_playwright

    args = [sys.executable, "-m", "admiralty.cli", "web", "--db", str(records / "none.db")]
    args += ["--records", str(records), "--port", "0", "--token", TOKEN]
    server = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = server.stdout.readline().split()[1].rstrip("/")  # type: ignore[union-attr]
        with sync_playwright() as playwright:
            chromium = shutil.which("chromium") or "chromium"
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"{url}{page_path}")
            page.wait_for_function(READY)
            paint = page.evaluate("performance.getEntriesByName('first-paint')[0].startTime")
            ready = page.evaluate("performance.now()")
            measured = page.evaluate(STEP, 200)
            page.goto(export.as_uri())
            page.wait_for_function(READY)
            opened = page.evaluate("performance.now()")
            browser.close()
    finally:
        server.terminate()
        server.wait()
    times = measured["times"]
    return {
        "board_ms": round(paint),
        "ready_ms": round(ready),
        "step_ms": round(statistics.median(times), 1),
        "step_max_ms": round(max(times), 1),
        "seek_ms": round(measured["seek"], 1),
        "export_ms": round(opened),
    }


def measure(game: str, players: int, seed: int, tries: int, browser: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as temporary:
        records = Path(temporary) / "records"
        (records / "bench").mkdir(parents=True)
        match_id, decisions = longest_match(game, players, seed, tries, records / "bench")
        client = TestClient(create_app(WebConfig(Path(temporary) / "none.db", records, TOKEN)))
        page = f"/t/bench/m/{match_id}"
        _replay.cache_clear()
        first, response = timed(lambda: client.get(page))
        assert response.status_code == 200, response.text
        again, _ = timed(lambda: client.get(page))
        client.post("/signin", data={"token": TOKEN})
        seat, _ = timed(lambda: client.get(f"{page}?seat=0"))
        frames = decisions + 1
        starts = sorted({min(frames - 1, frames * k // 4) for k in range(4)})
        chunks = [
            timed(lambda s=start: client.get(f"/api{page}/frames?start={s}&count={CHUNK}"))[0]
            for start in starts
        ]
        chunk = sum(chunks) / len(chunks)
        log, _ = timed(lambda: client.get(f"/api{page}/log"))
        target = Path(temporary) / "match.html"
        record = records / "bench" / f"{match_id}.jsonl.gz"
        exported, size = timed(lambda: write_export(record, None, target))
        seen = in_browser(records, page, target) if browser else {}
    return {
        "game": game,
        "players": players,
        "decisions": decisions,
        "first_page_s": round(first, 3),
        "first_page_cached_s": round(again, 3),
        "seat_page_s": round(seat, 3),
        "chunk_s": round(chunk, 3),
        "frame_ms": round(1000 * chunk / CHUNK, 2),
        "log_s": round(log, 3),
        "export_s": round(exported, 2),
        "export_bytes": size,
        **seen,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--players", type=int, help="seats (default: 4, Blackbeard 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tries", type=int, default=3, help="matches played per game")
    parser.add_argument("--browser", action="store_true", help="measure in Chromium too")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [
        measure(game, args.players or PLAYERS[game], args.seed, args.tries, args.browser)
        for game in args.game or sorted(PLAYERS)
    ]
    if args.json:
        json.dump(rows, sys.stdout, indent=2)
        print()
        return
    columns = list(rows[0])
    print(" ".join(f"{column:>14}" for column in columns))
    for row in rows:
        print(" ".join(f"{row[column]!s:>14}" for column in columns))


if __name__ == "__main__":
    main()
