"""The web app in a real browser: Debian's Chromium, driven by Playwright, against a real
`admiralty web` process (and a served referee for the live page). It opens the
leaderboard, opens a match, steps by keys, seeks, switches to a seat's view and checks what
is shown against the frames the server derives; it watches a live match to its end; and it
opens each game's exported replay from disk with the network cut off and saves a
screenshot of its board (into the folder ADMIRALTY_SCREENSHOTS names, when set:
`make screenshots` refreshes docs/images)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from e2e_helpers import ScriptedBot, play, watchable_referee
from playwright.sync_api import Browser, Page, expect, sync_playwright
from web_process import served_url, start_web, stop_web

from admiralty.arena.store import ArenaStore, SeatResult
from admiralty.referee.remote import remote_referee
from admiralty.web.frames import replay

pytestmark = pytest.mark.xdist_group("browser")  # one Chromium, on one test worker

REPO = Path(__file__).resolve().parents[2]
CLI = (sys.executable, "-m", "admiralty.cli")
RANDOM_BOT = REPO / "example_bots" / "random_bot.py"
TOKEN = "op-7c1e9a4f2b6d8035-secret"
"""The operator's token, also the served referee's admin token (`web --server` uses one)."""
SCREEN = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
RELOADED = 15_000
"""Milliseconds a polling page may take to show a change: it asks every 3 s."""


@pytest.fixture(scope="module")
def browser() -> Browser:
    chromium = shutil.which("chromium")
    assert chromium, "the browser tests need Debian's chromium (`make toolchains` installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def referee():
    with watchable_referee(TOKEN) as served:
        yield served


@pytest.fixture(scope="module")
def site(web_data, arena_data, referee, tmp_path_factory) -> str:
    """The URL of `admiralty web` over the test tournament, the test arena and the served
    referee."""
    token_file = tmp_path_factory.mktemp("token") / "token"
    token_file.write_text(TOKEN + "\n")
    process = start_web(
        web_data.db,
        web_data.records,
        "--server",
        referee[0],
        "--token-file",
        str(token_file),
        *arena_options(arena_data.db, arena_data.records),
    )
    try:
        yield served_url(process).rstrip("/")
    finally:
        code, stderr = stop_web(process)
        assert code == 0, stderr


def arena_options(db: Path, records: Path) -> list[str]:
    return ["--arena", str(db), "--arena-records", str(records)]


@pytest.fixture
def page(browser) -> Page:
    """A fresh page (no cookie) at 1280x800 that fails the test on any script error."""
    context = browser.new_context(viewport=SCREEN)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == []


def status(page: Page) -> str:
    return page.inner_text("#status")


def shown_step(page: Page) -> int:
    """The step the status line names."""
    return int(status(page).removeprefix("step ").split("/")[0])


def at_step(page: Page, step: int) -> None:
    """Wait until the viewer shows `step` with its board drawn."""
    expect(page.locator("#status")).to_contain_text(f"step {step}/")
    expect(page.locator("#board")).not_to_have_class("board loading")


def open_viewer(page: Page, url: str) -> None:
    """Go to a viewer's page and wait until its script answers keys."""
    page.goto(url)
    expect(page.locator("#viewer")).to_have_attribute("data-ready", "true")


def visible_log(page: Page) -> list[str]:
    shown = "#log li:not([hidden])"
    return page.eval_on_selector_all(shown, "items => items.map(item => item.textContent)")


def frames_of(web_data, match_id: str, seat=None):
    return replay(web_data.records / web_data.tournament / f"{match_id}.jsonl.gz", seat)


def log_up_to(texts: list[dict], position: int) -> list[str]:
    """The public log lines of frames 0..position, as the viewer lists them."""
    return [line for text in texts[: position + 1] for line in text["log"]]


def test_the_leaderboard_opens_from_the_list_and_links_its_matches(page, site, web_data):
    shown = subprocess.run(
        [*CLI, "tournament", "show", web_data.tournament, "--db", str(web_data.db), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    standings = json.loads(shown.stdout)["standings"]
    page.goto(f"{site}/")
    page.get_by_role("link", name=web_data.tournament, exact=True).click()
    expect(page).to_have_url(f"{site}/t/{web_data.tournament}")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(len(standings))
    for row, standing in zip(rows.all(), standings, strict=True):
        expect(row).to_contain_text(standing["bot"])
    expect(page.locator("#history + * svg, #history ~ figure svg").first).to_be_visible()
    first = web_data.match_ids[0]
    page.locator("table.matches").get_by_role("link", name=first).click()
    expect(page).to_have_url(f"{site}/t/{web_data.tournament}/m/{first}")
    at_step(page, 0)


def test_the_arena_opens_from_the_site_and_its_matches_replay(page, site, arena_data):
    shown = subprocess.run(
        [*CLI, "arena", "standings", "--db", str(arena_data.db), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    standings = json.loads(shown.stdout)["standings"]
    page.goto(f"{site}/")
    page.get_by_role("link", name="Arena", exact=True).click()
    expect(page).to_have_url(f"{site}/arena")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(len(standings))
    for row, standing in zip(rows.all(), standings, strict=True):
        expect(row.locator("th")).to_have_text(standing["bot"])
    number = arena_data.numbers[0]
    page.locator("table.matches").get_by_role("link", name=str(number), exact=True).click()
    expect(page).to_have_url(f"{site}/arena/m/{number}")
    expect(page.locator("#viewer")).to_have_attribute("data-ready", "true")
    texts = replay(arena_data.records / f"arena-{number}.jsonl.gz", None).texts
    at_step(page, 0)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    at_step(page, 3)
    assert visible_log(page) == log_up_to(texts, 3)
    page.keyboard.press("p")
    at_step(page, 2)
    page.get_by_role("link", name="← the arena").click()
    expect(page).to_have_url(f"{site}/arena")


def test_the_arena_page_reloads_itself_as_matches_are_played(page, web_data, arena_data, tmp_path):
    db = tmp_path / "arena.db"
    shutil.copy(arena_data.db, db)
    process = start_web(web_data.db, web_data.records, *arena_options(db, arena_data.records))
    try:
        page.goto(f"{served_url(process)}arena")
        rows = page.locator("table.matches tbody tr")
        expect(rows).to_have_count(len(arena_data.numbers))
        store = ArenaStore(db)
        number = store.next_match()
        store.start(number, "jamaica", 1, [("greedy", "1.0"), ("random-1", "1.0")], None)
        store.finish(
            number, [SeatResult("greedy", "1.0", 1, 9), SeatResult("random-1", "1.0", 2, 0)]
        )
        store.close()
        expect(rows).to_have_count(len(arena_data.numbers) + 1, timeout=RELOADED)
        expect(rows.first).to_contain_text("finished")
        expect(rows.first).to_contain_text("greedy 1.0: 1st, 9")
    finally:
        code, stderr = stop_web(process)
    assert code == 0, stderr


def test_keys_step_seek_jump_and_play_as_replay_i_does(page, site, web_data):
    match_id = web_data.match_ids[1]
    texts = frames_of(web_data, match_id).texts
    open_viewer(page, f"{site}/t/{web_data.tournament}/m/{match_id}")
    at_step(page, 0)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    at_step(page, 3)
    assert visible_log(page) == log_up_to(texts, 3)
    page.keyboard.press("p")
    at_step(page, 2)
    assert visible_log(page) == log_up_to(texts, 2)
    page.keyboard.type("s12")
    page.keyboard.press("Enter")
    at_step(page, 12)
    assert visible_log(page) == log_up_to(texts, 12)
    page.keyboard.type("g3")
    page.keyboard.press("Enter")
    third = next(index for index, text in enumerate(texts) if text["round"] >= 3)
    at_step(page, third)
    expect(page.locator("#status")).to_contain_text("round 3")
    expect(page.locator("#board")).to_contain_text("Round 3")
    page.locator("#seek").fill("40")
    at_step(page, 40)
    assert visible_log(page) == log_up_to(texts, 40)
    page.keyboard.press(" ")
    expect(page.locator("#status")).to_contain_text("playing")
    expect(page.locator("#status")).not_to_contain_text("step 40/")
    page.keyboard.press(" ")
    expect(page.locator("#status")).to_contain_text("paused")
    page.keyboard.press("l")
    expect(page.locator("#legend")).to_be_visible()


def test_the_operator_switches_to_a_seats_view(page, site, web_data):
    match_id = web_data.match_ids[0]
    address = f"{site}/t/{web_data.tournament}/m/{match_id}"
    open_viewer(page, address)
    at_step(page, 0)
    expect(page.locator("#seat-select")).to_have_count(0)  # a visitor has no seat to choose
    page.goto(f"{site}/signin")
    page.fill("#token", TOKEN)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    open_viewer(page, address)
    page.select_option("#seat-select", "0")
    expect(page).to_have_url(f"{address}?seat=0#frame=0")
    expect(page.locator("#viewer")).to_have_attribute("data-ready", "true")
    at_step(page, 0)
    expect(page.locator("#decision")).to_contain_text("Seat 1\N{RIGHT SINGLE QUOTATION MARK}s eye")
    texts = frames_of(web_data, match_id, 0).texts
    asked = [i for i, text in enumerate(texts) if text["decision"] and text["decision"]["asked"]]
    page.keyboard.press("d")
    at_step(page, texts[asked[0]]["step"])
    decision = texts[asked[0]]["decision"]
    panel = page.locator("#decision")
    expect(panel).to_contain_text(decision["prompt"])
    expect(panel.locator("ol.options li")).to_have_count(len(decision["options"]))
    chosen = panel.locator("li.chosen")
    key, label = decision["options"][decision["chosen"]]
    expect(chosen).to_have_text(f"▶ {decision['chosen']}. {key} — {label}")
    page.keyboard.press("d")
    at_step(page, texts[asked[1]]["step"])


def test_a_live_match_is_watched_as_it_plays_to_its_result(page, site, referee):
    address, bots = referee
    with remote_referee(address, TOKEN) as remote:
        match_id = remote.create("jamaica", bots, 5, {"round_cap": 4}).match_id
    open_viewer(page, f"{site}/live/{match_id}")
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator("#viewer-note")).to_contain_text("The match is over", timeout=30_000)
    expect(page.locator("#result-table tbody tr")).to_have_count(2)
    assert int(page.get_attribute("#seek", "max")) >= 2  # the referee may send views coalesced
    final = shown_step(page)
    expect(page.locator("#status")).to_contain_text(f"step {final}/{final} ")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#status")).not_to_contain_text(f"step {final}/")
    assert shown_step(page) < final
    expect(page.locator("#result")).to_be_hidden()  # the result shows at the end only


def test_the_match_page_fits_a_phone_and_a_desktop(browser, site, web_data):
    address = f"{site}/t/{web_data.tournament}/m/{web_data.match_ids[0]}"
    for viewport in (PHONE, SCREEN):
        context = browser.new_context(viewport=viewport)
        opened = context.new_page()
        open_viewer(opened, address)
        at_step(opened, 0)
        width = opened.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"]
        board = opened.locator("#board svg").bounding_box()
        log = opened.locator("#log").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= viewport["width"]
        beside = board["x"] + board["width"] <= log["x"]
        assert beside == (viewport is SCREEN)  # on a phone the log goes below the board
        context.close()


def exported_page(record: Path, folder: Path) -> Path:
    """`admiralty replay RECORD --export`: the page it wrote."""
    page = folder / f"{record.name.split('.')[0]}.html"
    args = [*CLI, "replay", str(record), "--export", str(page)]
    written = subprocess.run(args, capture_output=True, text=True)
    assert written.returncode == 0, written.stderr
    return page


def recorded(game: str, players: int, options: dict[str, int], folder: Path) -> Path:
    """A match of random bots, played and recorded by `admiralty play`."""
    path = folder / f"{game}.jsonl.gz"
    args = [*CLI, "play", game, "--seed", "11"]
    args += ["--record", str(path), "--json"]
    args += [f"--bot={RANDOM_BOT}"] * players
    args += [f"--option={name}={value}" for name, value in options.items()]
    played = subprocess.run(args, capture_output=True, text=True, cwd=REPO)
    assert played.returncode == 0, played.stderr
    return path


GAMES = {
    "jamaica": (3, {}),
    "black_fleet": (3, {"round_cap": 12}),
    "blackbeard": (3, {}),
}


@pytest.mark.parametrize("game", GAMES)
def test_each_games_export_plays_offline_from_disk(page, game, tmp_path):
    players, options = GAMES[game]
    record = recorded(game, players, options, tmp_path)
    exported = exported_page(record, tmp_path)
    fetched: list[str] = []

    def offline(route):
        fetched.append(route.request.url)
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", offline)
    open_viewer(page, exported.as_uri())
    last = len(replay(record, None)) - 1
    expect(page.locator("#status")).to_contain_text(f"step 0/{last}")
    middle = last // 2
    page.keyboard.type(f"s{middle}")
    page.keyboard.press("Enter")
    at_step(page, middle)
    page.keyboard.press("ArrowRight")
    at_step(page, middle + 1)
    assert fetched == [exported.as_uri()]
    folder = Path(os.environ.get("ADMIRALTY_SCREENSHOTS") or tmp_path)
    page.locator("#board svg").screenshot(path=folder / f"web-{game}.png")
    if game == "jamaica":
        page.screenshot(path=folder / "web-viewer.png")


def test_incidents_are_marked_on_the_timeline_and_i_jumps_to_them(page, tmp_path):
    """A match whose second seat answers its third request with no such option."""
    asked = [0]

    def wrong_third(request) -> int:
        asked[0] += 1
        return 99 if asked[0] == 3 else len(request.options) - 1

    record = tmp_path / "incident.jsonl.gz"
    bots = [ScriptedBot("first", lambda request: 0), ScriptedBot("wrong", wrong_third)]
    match = play(bots, seed=5, record_path=record, options={"round_cap": 3})
    thread = threading.Thread(target=asyncio.run, args=(match,))  # Playwright owns this loop
    thread.start()
    thread.join(60)
    texts = replay(record, None).texts
    incident = next(index for index, text in enumerate(texts) if text["incidents"])
    open_viewer(page, exported_page(record, tmp_path).as_uri())
    expect(page.locator("#marks .mark")).to_have_count(1)
    expect(page.locator("#incident-list")).to_contain_text("wrong illegal: option 99 of 2")
    page.keyboard.press("i")
    at_step(page, texts[incident]["step"])
    expect(page.locator("#log li.incident:not([hidden])")).to_have_count(1)
    page.keyboard.press("Home")  # not a key of the viewer: nothing moves
    at_step(page, texts[incident]["step"])
    page.keyboard.press("i")
    expect(page.locator("#status")).to_contain_text("no further incident")
