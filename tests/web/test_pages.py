"""The web app's tournament pages, sign-in, headers and errors, over HTTP (starlette's test
client) against the database and records of a real tournament run: the leaderboard shows
the numbers of `tournament show --json`, every bad id is a 404 page, every response
carries the security headers, the token never appears in a page, and nothing is written."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import socket
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner
from web_pages import Tables, seen

from admiralty.cli import app as cli
from admiralty.tournament import Runner, Store, StoreError, Tournament, plan_matches
from admiralty.tournament.report import ALL_VIEWS, tournament_report
from admiralty.web.app import CSP, create_app
from admiralty.web.config import WebConfig
from admiralty.web.plots import LABEL_GAP, rating_plot, ticks

TOKEN = "op-7c1d0a9e5f3b2846-secret"
"""The operator's token: distinctive, so a page leaking it is caught by a substring test."""


def client_for(db: Path, records: Path, **options) -> TestClient:
    return TestClient(create_app(WebConfig(db, records, TOKEN)), **options)


@pytest.fixture(scope="module")
def client(web_data) -> TestClient:
    return client_for(web_data.db, web_data.records)


def shown(value) -> str:
    """A JSON value as the leaderboard writes it."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def every_page(web_data) -> list[str]:
    name = web_data.tournament
    return [
        "/",
        f"/t/{name}",
        f"/api/t/{name}/progress",
        "/signin",
        *[f"/t/{name}/m/{match_id}" for match_id in web_data.match_ids],
    ]


def test_the_list_shows_the_tournament_with_its_state_and_progress(client, web_data):
    page = client.get("/")
    assert page.status_code == 200
    rows = Tables(page.text).tables["tournaments"]
    header, *body = rows
    assert [text for _, text in header] == [
        "name",
        "state",
        "progress",
        "game",
        "seats",
        "bots",
        "created (UTC)",
    ]
    planned = len(web_data.match_ids)
    assert [text for _, text in body[0]][:6] == [
        web_data.tournament,
        "finished",
        f"{planned}/{planned}",
        web_data.game,
        "2",
        "3",
    ]
    assert f'href="/t/{web_data.tournament}"' in page.text


def test_tournaments_are_listed_newest_first_undated_last(tmp_path):
    store = Store(tmp_path / "t.db", create=True)
    lease = Runner(os.getpid(), socket.gethostname(), "2030-01-01T00:00:00+00:00")
    for name, created in [
        ("old", "2030-01-01T00:00:00+00:00"),
        ("undated", None),
        ("new", "2030-03-01T00:00:00+00:00"),
        ("mid", "2030-02-01T00:00:00+00:00"),
    ]:
        tournament = Tournament(name, "jamaica", 2, 1, 5, {}, ("a", "b"), ("a", "b"), created)
        store.create(tournament, plan_matches(name, 2, 2, 1, 5), lease)
        store.release_lease(name, lease)
    store._db.execute("DELETE FROM created WHERE tournament='undated'")  # an older admiralty's
    store.close()
    page = client_for(tmp_path / "t.db", tmp_path / "records").get("/")
    names = [row[0][1] for row in Tables(page.text).tables["tournaments"][1:]]
    assert names == ["new", "mid", "old", "undated"]


def test_a_missing_database_is_a_page_saying_so_with_its_path(tmp_path):
    db = tmp_path / "none.db"
    page = client_for(db, tmp_path / "records").get("/")
    assert page.status_code == 200
    assert "No tournaments yet" in page.text and str(db) in page.text
    assert not db.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"not a database at all" * 100, "is not an SQLite database"), (b"", "is empty")],
)
def test_a_file_that_is_no_tournament_database_is_one_sentence(tmp_path, content, message):
    db = tmp_path / "t.db"
    db.write_bytes(content)
    page = client_for(db, tmp_path / "records").get("/")
    assert page.status_code == 503
    assert message in page.text and "Traceback" not in page.text
    assert db.read_bytes() == content


def test_the_leaderboard_has_the_numbers_of_tournament_show_json(client, web_data):
    printed = CliRunner().invoke(
        cli, ["tournament", "show", web_data.tournament, "--db", str(web_data.db), "--json"]
    )
    assert printed.exit_code == 0, printed.output
    standings = json.loads(printed.stdout)["standings"]
    store = Store(web_data.db, read_only=True)
    assert tournament_report(store, web_data.tournament)["standings"] == standings
    store.close()
    rows = Tables(client.get(f"/t/{web_data.tournament}").text).tables["leaderboard"][1:]
    assert len(rows) == len(standings) == 3
    for row, standing in zip(rows, standings, strict=True):
        cells = dict(row)
        assert cells.keys() - {"bot"} <= standing.keys() - {"bot"}
        for key in (
            "rank",
            "mu",
            "sigma",
            "conservative",
            "matches",
            "firsts",
            "incidents",
            "crashes",
            "disqualified",
            "latency_mean_ms",
            "latency_p95_ms",
        ):
            assert cells[key] == shown(standing[key]), key
        assert cells["bot"] == standing["bot"]


def test_the_views_match_the_report(client, web_data):
    store = Store(web_data.db, read_only=True)
    report = tournament_report(store, web_data.tournament, ALL_VIEWS)
    store.close()
    page = client.get(f"/t/{web_data.tournament}").text
    tables = Tables(page).tables
    h2h = report["head_to_head"]
    for a, row in enumerate(tables["head-to-head"][1:]):
        assert row[0][1] == h2h["bots"][a]
        expected = [
            "-" if a == b else f"{h2h['wins'][a][b]}/{h2h['games'][a][b]}"
            for b in range(len(h2h["bots"]))
        ]
        assert [text for _, text in row[1:]] == expected
    assert [[text for _, text in row] for row in tables["seats"][1:]] == [
        [str(s["seat"]), str(s["games"]), str(s["wins"]), str(s["win_share"]), str(s["fair_share"])]
        for s in report["seats"]
    ]
    matches = tables["matches"][1:]
    assert [row[0][1] for row in matches] == web_data.match_ids
    assert all(
        str(m["steps"]) == row[3][1] for m, row in zip(report["matches"], matches, strict=True)
    )
    for entry in report["history"]:
        assert f'data-bot="{entry["bot"]}"' in page


def test_each_recorded_match_is_linked_and_an_unrecorded_one_is_not(tmp_path, web_data):
    records = tmp_path / "records"
    shutil.copytree(web_data.records, records)
    missing, *kept = web_data.match_ids
    (records / web_data.tournament / f"{missing}.jsonl.gz").unlink()
    links = Tables(client_for(web_data.db, records).get(f"/t/{web_data.tournament}").text).links
    match_links = [link for link in links if "/m/" in link]
    assert match_links == [f"/t/{web_data.tournament}/m/{match_id}" for match_id in kept]


def test_a_running_tournament_shows_its_progress_and_polls_it(tmp_path):
    store = Store(tmp_path / "t.db", create=True)
    lease = Runner(os.getpid(), socket.gethostname(), "2030-01-01T00:00:00+00:00")
    tournament = Tournament(
        "live",
        "jamaica",
        2,
        1,
        5,
        {"rating": "trueskill", "deals": "fresh"},
        ("a", "b"),
        ("a", "b"),
    )
    store.create(tournament, plan_matches("live", 2, 2, 1, 5), lease)  # this process: alive
    store.close()
    client = client_for(tmp_path / "t.db", tmp_path / "records")
    page = client.get("/t/live")
    assert page.status_code == 200
    assert '<script src="/static/progress.js"' in page.text
    assert 'data-poll="/api/t/live/progress"' in page.text
    assert seen(page.text) == {"state": "running", "played": 0, "planned": 2}
    assert "0/2" in page.text and "No games rated yet" in page.text
    assert client.get("/api/t/live/progress").json() == {
        "state": "running",
        "played": 0,
        "planned": 2,
    }


@pytest.mark.parametrize(
    "path",
    [
        "/t/nope",
        "/t/%2e%2e",
        "/t/..%2F..%2Fetc%2Fpasswd",
        "/t/%2Fetc%2Fpasswd",
        "/t/" + "a" * 5000,
        "/t/cup/m/nope",
        "/t/cup/m/%2e%2e",
        "/t/cup/m/..%2F..%2F..%2Fetc%2Fpasswd",
        "/t/cup/m/%2Fetc%2Fpasswd",
        "/t/cup/m/" + "a" * 300,
        "/t/nope/m/cup-r1-g1-s1",
        "/t/%2e%2e/m/cup-r1-g1-s1",
        "/api/t/nope/progress",
        "/api/t/%2e%2e/progress",
        "/static/..%2F..%2Fapp.py",
        "/no/such/page",
    ],
)
def test_a_bad_name_or_id_is_a_404_page(client, path):
    page = client.get(path)
    assert page.status_code == 404, path
    assert page.headers["content-type"].startswith("text/html")
    assert "<h1>Not found</h1>" in page.text and "Traceback" not in page.text


def test_every_response_carries_the_security_headers(client, web_data):
    responses = [client.get(path) for path in every_page(web_data)]
    responses += [client.get("/static/style.css"), client.get("/t/nope"), client.put("/")]
    responses.append(client.post("/signin", data={"token": "wrong"}))
    responses.append(client.post("/signin", data={"token": TOKEN}, follow_redirects=False))
    assert {response.status_code for response in responses} >= {200, 303, 403, 404, 405}
    for response in responses:
        assert response.headers["content-security-policy"] == CSP
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "same-origin"
    assert "style=" not in responses[1].text and "<script>" not in responses[1].text


def test_a_wrong_token_is_refused_with_a_page(web_data):
    client = client_for(web_data.db, web_data.records)
    page = client.post("/signin", data={"token": TOKEN + "x"})
    assert page.status_code == 403
    assert "not the operator" in page.text and "admiralty_session" not in page.headers.get(
        "set-cookie", ""
    )
    assert "Sign out" not in client.get("/").text


def test_the_right_token_signs_in_with_a_cookie_and_signout_ends_it(web_data):
    client = client_for(web_data.db, web_data.records)
    answer = client.post("/signin", data={"token": TOKEN, "next": "/t/cup"}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/t/cup"
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower() and TOKEN not in cookie
    session = client.cookies["admiralty_session"]
    assert "Sign out" in client.get("/").text
    client.post("/signout", follow_redirects=False)
    assert "Sign in" in client.get("/").text
    client.cookies.set("admiralty_session", session)  # a copied cookie outlives nothing
    assert "Sign out" not in client.get("/").text


def test_signing_in_from_another_site_or_away_from_this_one_is_refused(web_data):
    client = client_for(web_data.db, web_data.records)
    forged = client.post(
        "/signin", data={"token": TOKEN}, headers={"origin": "http://evil.example"}
    )
    assert forged.status_code == 403 and "admiralty_session" not in client.cookies
    away = client.post(
        "/signin", data={"token": TOKEN, "next": "//evil.example/"}, follow_redirects=False
    )
    assert away.headers["location"] == "/"
    again = client.post("/signin", data={"token": TOKEN, "next": "/signin"}, follow_redirects=False)
    assert again.headers["location"] == "/"


def test_the_token_is_in_no_page(web_data):
    client = client_for(web_data.db, web_data.records)
    pages = [client.get(path).text for path in every_page(web_data)]
    pages.append(client.post("/signin", data={"token": "wrong"}).text)
    pages.append(client.post("/signin", data={"token": TOKEN}).text)  # followed: signed in
    pages += [client.get(path).text for path in every_page(web_data)]
    assert "Sign out" in pages[-1]
    seat_view = f"/t/{web_data.tournament}/m/{web_data.match_ids[0]}?seat=0"
    pages.append(client.get(seat_view).text)
    assert not [page for page in pages if TOKEN in page]


def test_visiting_every_page_writes_nothing(client, web_data):
    def state() -> dict[Path, tuple[bytes, int]]:
        files = [web_data.db, *sorted(web_data.records.rglob("*"))]
        return {f: (f.read_bytes(), f.stat().st_mtime_ns) for f in files if f.is_file()}

    before = state()
    for path in every_page(web_data):
        assert client.get(path).status_code == 200, path
    client.post("/signin", data={"token": TOKEN})
    for path in every_page(web_data):
        client.get(path)
    assert state() == before


def test_ticks_are_round_and_cover_the_range():
    assert ticks(0, 4) == [0, 1, 2, 3, 4]
    assert ticks(20.7, 29.3) == [20, 22, 24, 26, 28, 30]
    assert ticks(0, 1000) == [0, 200, 400, 600, 800, 1000]


def test_the_plot_tells_bots_apart_by_marker_and_name_not_colour_only():
    bots = [f"bot {i}" for i in range(7)]
    history = [
        {"bot": bot, "points": [{"games": g, "mu": 25.0, "sigma": 8.0} for g in range(3)]}
        for bot in bots
    ]
    svg = rating_plot(history, bots)
    series = re.findall(r'<g class="series" data-bot="([^"]*)">(.*?)</g></g>', svg)
    assert [bot for bot, _ in series] == bots
    shapes = {re.sub(r"[\d.\-]+", "#", re.search(r"<g fill.*", body).group()) for _, body in series}
    assert len(shapes) == len(bots)  # one marker shape per bot
    labels = [
        float(y) for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)" fill="currentColor">', svg)
    ]
    assert len(labels) == len(bots)  # every line ends at 25: its names are moved apart
    assert all(b - a >= LABEL_GAP - 0.1 for a, b in itertools.pairwise(labels))


def test_the_store_the_pages_open_refuses_every_write(tmp_path, web_data):
    db = tmp_path / "t.db"
    shutil.copy(web_data.db, db)
    store = Store(db, read_only=True)
    lease = Runner(os.getpid(), socket.gethostname(), "2030-01-01T00:00:00+00:00")
    with pytest.raises(StoreError, match="readonly"):
        store.take_lease(web_data.tournament, lease)
    with pytest.raises(StoreError, match="readonly"):
        store.delete(web_data.tournament)
    assert [row.name for row in store.summaries()] == [web_data.tournament]


def test_a_database_of_an_older_admiralty_is_read_without_adding_its_new_tables(tmp_path):
    """Tables added within schema version 1 (when each tournament was created, how often
    its bots died) are missing from an older admiralty's file: read as empty, not made."""
    db = tmp_path / "t.db"
    lease = Runner(os.getpid(), socket.gethostname(), "2030-01-01T00:00:00+00:00")
    store = Store(db, create=True)
    tournament = Tournament("old", "jamaica", 2, 1, 5, {}, ("a", "b"), ("a", "b"))
    store.create(tournament, plan_matches("old", 2, 2, 1, 5), lease)
    store.release_lease("old", lease)
    store._db.executescript("DROP TABLE created; DROP TABLE deaths;")
    store.close()
    before = db.read_bytes()
    reader = Store(db, read_only=True)
    assert [(row.name, row.created) for row in reader.summaries()] == [("old", None)]
    assert reader.deaths("old", 2) == [0, 0]
    reader.close()
    assert db.read_bytes() == before
    tables = sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type='table'")
    assert {"created", "deaths"}.isdisjoint(name for (name,) in tables)
