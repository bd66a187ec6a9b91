"""The arena's pages over HTTP (starlette's test client) against the file and records of a
real ladder: the standings show the numbers of `arena standings --json`, the matches are
listed newest first and paged, each recorded one opens in the tournaments' replay viewer
with the same API, the page polls a progress answer that changes as matches start and end,
every bad id is a 404 page, nothing is written, and without an arena there is none."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner
from web_pages import Tables, seen

from admiralty.arena.store import ArenaStore, SeatResult, StoreError
from admiralty.cli import app as cli
from admiralty.web.app import create_app
from admiralty.web.arena import PAGE_SIZE
from admiralty.web.config import WebConfig
from admiralty.web.frames import replay

TOKEN = "op-4e8a1c6b9d2f7035-secret"


def client_for(web_data, db: Path | None, records: Path | None = None) -> TestClient:
    config = WebConfig(web_data.db, web_data.records, TOKEN, arena=db, arena_records=records)
    return TestClient(create_app(config))


@pytest.fixture(scope="module")
def client(web_data, arena_data) -> TestClient:
    return client_for(web_data, arena_data.db, arena_data.records)


def copied(arena_data, folder: Path) -> tuple[Path, Path]:
    """A copy of the arena's file and records, to change."""
    db, records = folder / "arena.db", folder / "arena-records"
    shutil.copy(arena_data.db, db)
    shutil.copytree(arena_data.records, records)
    return db, records


def record_of(arena_data, number: int) -> Path:
    return arena_data.records / f"arena-{number}.jsonl.gz"


def arena_json(arena_data, *command: str) -> dict:
    printed = CliRunner().invoke(cli, ["arena", *command, "--db", str(arena_data.db), "--json"])
    assert printed.exit_code == 0, printed.output
    return json.loads(printed.stdout)


def test_the_standings_have_the_numbers_of_arena_standings_json(client, arena_data):
    standings = arena_json(arena_data, "standings")["standings"]
    matches = arena_json(arena_data, "matches", "--last", "1000")["matches"]
    rows = Tables(client.get("/arena").text).tables["leaderboard"][1:]
    assert len(rows) == len(standings) == 3
    assert standings[0]["bot"] == "greedy"  # it beats the random bots
    wins = Counter(r["bot"] for m in matches for r in m["results"] if r["place"] == 1)
    for row, standing in zip(rows, standings, strict=True):
        cells = dict(row)
        for key in ("rank", "bot", "version", "mu", "sigma", "conservative", "games"):
            assert cells[key] == str(standing[key]), key
        bot = standing["bot"]
        assert cells["wins"] == str(wins[bot])
        last = max(m["finished"] for m in matches if bot in {p["bot"] for p in m["players"]})
        assert cells["last_played"] == last.replace("T", " ")[:16]


def test_the_matches_are_listed_newest_first_each_linked_to_its_replay(client, arena_data):
    page = Tables(client.get("/arena").text)
    rows = page.tables["matches"][1:]
    assert [row[0][1] for row in rows] == [str(n) for n in arena_data.numbers]
    assert {row[1][1] for row in rows} == {"finished"}
    first = arena_json(arena_data, "matches", "--last", "1")["matches"][0]
    places = [f"{r['bot']} {r['version']}: " for r in first["results"]]
    assert all(place in rows[0][3][1] for place in places)
    links = [link for link in page.links if "/m/" in link]
    assert links == [f"/arena/m/{n}" for n in arena_data.numbers]


def test_a_running_void_or_unrecorded_match_is_listed_but_not_linked(
    tmp_path, web_data, arena_data
):
    db, records = copied(arena_data, tmp_path)
    (records / "arena-1.jsonl.gz").unlink()
    store = ArenaStore(db)
    players = [("greedy", "1.0"), ("random-1", "1.0")]
    store.start(7, "jamaica", 1, players, None)
    store.start(8, "jamaica", 2, players, None)
    store.void(8)
    store.close()
    page = Tables(client_for(web_data, db, records).get("/arena").text)
    rows = page.tables["matches"][1:]
    assert [(row[0][1], row[1][1]) for row in rows[:3]] == [
        ("8", "void"),
        ("7", "running"),
        ("6", "finished"),
    ]
    assert rows[1][3][1] == "greedy 1.0random-1 1.0"  # its seats, with no place yet
    assert [link for link in page.links if "/m/" in link] == [
        f"/arena/m/{n}" for n in range(6, 1, -1)
    ]


def test_the_page_polls_an_answer_that_changes_as_matches_start_and_end(
    tmp_path, web_data, arena_data
):
    db, records = copied(arena_data, tmp_path)
    client = client_for(web_data, db, records)
    games = sum(s["games"] for s in arena_json(arena_data, "standings")["standings"])
    before = {"matches": len(arena_data.numbers), "rated": games}
    assert client.get("/api/arena/progress").json() == before
    page = client.get("/arena").text
    assert seen(page) == before
    assert 'data-poll="/api/arena/progress"' in page and 'src="/static/progress.js"' in page
    store = ArenaStore(db)
    store.start(7, "jamaica", 1, [("greedy", "1.0"), ("random-1", "1.0")], None)
    started = client.get("/api/arena/progress").json()
    assert started == {"matches": 7, "rated": games}
    store.finish(7, [SeatResult("greedy", "1.0", 1, 5), SeatResult("random-1", "1.0", 2, 0)])
    store.close()
    assert client.get("/api/arena/progress").json() == {"matches": 7, "rated": games + 2}
    assert seen(client.get("/arena").text) == {"matches": 7, "rated": games + 2}


def pages(page: str) -> dict[str, str]:
    """The links to the newer (prev) and older (next) page of matches."""
    return {rel: href for href, rel in re.findall(r'<a href="([^"]*)" rel="(prev|next)">', page)}


def test_the_matches_are_paged_newest_first(tmp_path, web_data):
    store = ArenaStore(tmp_path / "arena.db", create=True)
    for name in ("a", "b"):
        store.add(name)
        store.new_version(name, "1", keep=True)
    total = PAGE_SIZE + 10
    for number in range(1, total + 1):
        store.start(number, "jamaica", number, [("a", "1"), ("b", "1")], None)
        store.finish(number, [SeatResult("a", "1", 1, 1), SeatResult("b", "1", 2, 0)])
    store.close()
    client = client_for(web_data, tmp_path / "arena.db", tmp_path / "records")
    first, second = (Tables(client.get(path).text) for path in ("/arena", "/arena?page=2"))
    assert [row[0][1] for row in first.tables["matches"][1:]] == [
        str(n) for n in range(total, total - PAGE_SIZE, -1)
    ]
    assert [row[0][1] for row in second.tables["matches"][1:]] == [str(n) for n in range(10, 0, -1)]
    assert pages(client.get("/arena").text) == {"next": "/arena?page=2"}
    assert pages(client.get("/arena?page=2").text) == {"prev": "/arena"}
    assert client.get("/arena?page=3").status_code == 404
    assert client.get("/arena?page=0").status_code == 404
    assert client.get("/arena?page=two").status_code == 400
    assert dict(first.tables["leaderboard"][1])["wins"] == str(total)


def test_a_match_opens_in_the_tournaments_viewer_with_the_same_api(client, arena_data):
    number = arena_data.numbers[0]
    shown = replay(record_of(arena_data, number), None)
    page = client.get(f"/arena/m/{number}")
    assert page.status_code == 200
    assert shown.frame(0)["svg"] in page.text
    assert f'data-frames-url="/api/arena/m/{number}/frames"' in page.text
    assert '<a href="/arena">← the arena</a>' in page.text
    api = f"/api/arena/m/{number}"
    assert client.get(f"{api}/frames?start=1&count=4").json() == {
        "start": 1,
        "frames": shown.frames(1, 4),
    }
    log = client.get(f"{api}/log").json()["frames"]
    assert log == [{k: v for k, v in f.items() if k != "svg"} for f in shown.frames(0, 10**6)]
    assert client.get(f"{api}/frames?start={len(shown) + 1}").status_code == 400


def test_the_arena_s_records_are_in_the_records_folder_unless_told(web_data, arena_data):
    """As `arena serve` writes them into `records` unless given --records."""
    number = arena_data.numbers[0]
    default = WebConfig(web_data.db, arena_data.records, TOKEN, arena=arena_data.db)
    assert TestClient(create_app(default)).get(f"/arena/m/{number}").status_code == 200
    assert client_for(web_data, arena_data.db).get(f"/arena/m/{number}").status_code == 404


def test_a_seat_s_view_is_the_operator_s_only(web_data, arena_data):
    number = arena_data.numbers[-1]
    client = client_for(web_data, arena_data.db, arena_data.records)
    assert client.get(f"/arena/m/{number}?seat=0").status_code == 403
    assert client.get(f"/api/arena/m/{number}/frames?seat=0").status_code == 403
    assert client.post("/signin", data={"token": TOKEN}, follow_redirects=False).is_redirect
    assert client.get(f"/arena/m/{number}?seat=0").status_code == 200
    frames = client.get(f"/api/arena/m/{number}/frames?seat=1&count=200").json()["frames"]
    assert frames == replay(record_of(arena_data, number), 1).frames(0, 200)


@pytest.mark.parametrize(
    "path",
    [
        "/arena/m/0",
        "/arena/m/01",
        "/arena/m/-1",
        "/arena/m/1.5",
        "/arena/m/abc",
        "/arena/m/arena-1",
        "/arena/m/%2e%2e",
        "/arena/m/..%2F..%2Fetc%2Fpasswd",
        "/arena/m/1%2F..%2F..%2Fx",
        "/arena/m/" + "9" * 30,
        "/arena/m/999",
        "/api/arena/m/999/frames",
        "/api/arena/m/abc/frames",
        "/api/arena/m/%2e%2e/log",
        "/api/arena/m/..%2F..%2Fadmiralty/log",
    ],
)
def test_a_bad_or_unknown_arena_match_is_a_404_page(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "<h1>Not found</h1>" in response.text and "Traceback" not in response.text
    assert "content-security-policy" in response.headers


def test_a_record_linked_from_outside_the_records_folder_is_not_served(
    tmp_path, web_data, arena_data
):
    outside = tmp_path / "secret.jsonl.gz"
    outside.write_bytes(record_of(arena_data, 1).read_bytes())
    records = tmp_path / "records"
    records.mkdir()
    (records / "arena-1.jsonl.gz").symlink_to(outside)
    client = client_for(web_data, arena_data.db, records)
    assert client.get("/arena/m/1").status_code == 404
    assert client.get("/api/arena/m/1/frames").status_code == 404
    assert "/arena/m/1" not in Tables(client.get("/arena").text).links


def test_without_an_arena_its_pages_are_404_and_the_site_does_not_link_it(web_data, arena_data):
    client = client_for(web_data, None)
    for path in ("/arena", "/api/arena/progress", "/arena/m/1", "/api/arena/m/1/frames"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "No arena is configured (admiralty web --arena)." in response.text
    assert '<a href="/arena">Arena</a>' not in client.get("/").text
    with_arena = client_for(web_data, arena_data.db, arena_data.records)
    assert '<a href="/arena">Arena</a>' in with_arena.get("/").text


def test_a_missing_arena_file_is_a_page_saying_so(tmp_path, web_data):
    page = client_for(web_data, tmp_path / "none.db").get("/arena")
    assert page.status_code == 200
    assert f"No arena yet: {tmp_path / 'none.db'} does not exist." in page.text
    assert "No bot has played yet." in page.text and "No matches yet." in page.text


def test_a_tournament_database_given_as_the_arena_is_one_sentence(web_data):
    page = client_for(web_data, web_data.db).get("/arena")
    assert page.status_code == 503
    assert f"{web_data.db} is not an arena database" in page.text


def test_visiting_the_arena_writes_nothing(client, arena_data):
    def state() -> dict[Path, tuple[bytes, int]]:
        files = [arena_data.db, *sorted(arena_data.records.rglob("*"))]
        return {f: (f.read_bytes(), f.stat().st_mtime_ns) for f in files if f.is_file()}

    before = state()
    pages = ["/arena", "/api/arena/progress"]
    for number in arena_data.numbers:
        pages += [f"/arena/m/{number}", f"/api/arena/m/{number}/frames"]
    for path in pages:
        assert client.get(path).status_code == 200, path
    assert state() == before


def test_the_store_the_pages_open_refuses_every_write(tmp_path, arena_data):
    db, _ = copied(arena_data, tmp_path)
    store = ArenaStore(db, read_only=True)
    with pytest.raises(StoreError, match="readonly"):
        store.add("newcomer")
    with pytest.raises(StoreError, match="readonly"):
        store.remove("greedy")
    assert store.standings()[0].name == "greedy"
    store.close()
