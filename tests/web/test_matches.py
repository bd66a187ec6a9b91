"""The match page, its frames API and the live pages (admiralty.web.matches) over HTTP:
frame 0 and the header inline, frames in capped chunks, a seat's view for the operator
only, every bad id or number a 404 or 400 page, and a served referee's match relayed as
server-sent events while it plays."""

from __future__ import annotations

import json
import time
from html import unescape

import pytest
from e2e_helpers import watchable_referee
from starlette.testclient import TestClient

from admiralty.referee.remote import remote_referee
from admiralty.web import matches
from admiralty.web.app import create_app
from admiralty.web.config import WebConfig
from admiralty.web.frames import replay
from admiralty_sdk.v1 import referee_pb2

TOKEN = "op-2b9e4c7a1d3f5068-secret"
REFEREE_TOKEN = "ref-5d0c8b2e7f1a3946-secret"


def client_for(web_data, **config) -> TestClient:
    return TestClient(create_app(WebConfig(web_data.db, web_data.records, TOKEN, **config)))


@pytest.fixture(scope="module")
def client(web_data) -> TestClient:
    return client_for(web_data)


@pytest.fixture(scope="module")
def operator(web_data) -> TestClient:
    signed_in = client_for(web_data)
    assert signed_in.post("/signin", data={"token": TOKEN}, follow_redirects=False).is_redirect
    return signed_in


@pytest.fixture(scope="module")
def match(web_data):
    """The first match's page address, API address and record."""
    name, match_id = web_data.tournament, web_data.match_ids[0]
    record = web_data.records / name / f"{match_id}.jsonl.gz"
    return f"/t/{name}/m/{match_id}", f"/api/t/{name}/m/{match_id}", record


def block(page: str, element_id: str) -> str:
    """The text of the <script> element with this id."""
    start = page.index(f'id="{element_id}">') + len(f'id="{element_id}">')
    return page[start : page.index("</script>", start)]


def test_the_page_shows_frame_0_and_holds_the_header(client, match):
    page_url, _, record = match
    response = client.get(page_url)
    assert response.status_code == 200
    assert "content-security-policy" in response.headers
    shown = replay(record, None)
    assert shown.frame(0)["svg"] in response.text  # drawn before any script runs
    assert json.loads(block(response.text, "match-data")) == json.loads(json.dumps(shown.header()))
    assert '<script src="/static/viewer.js"' in response.text
    assert "<script>" not in response.text and " style=" not in response.text  # the CSP's rule
    assert 'id="seat-select"' not in response.text  # a spectator has no seats to choose


def test_frames_come_in_chunks_as_the_replay_makes_them(client, match):
    _, api, record = match
    shown = replay(record, None)
    chunk = client.get(f"{api}/frames?start=2&count=3")
    assert chunk.status_code == 200 and chunk.headers["content-encoding"] == "gzip"
    assert chunk.json() == {"start": 2, "frames": shown.frames(2, 3)}
    tail = client.get(f"{api}/frames?start={len(shown) - 2}&count=50").json()["frames"]
    assert [frame["step"] for frame in tail] == [len(shown) - 2, len(shown) - 1]
    assert client.get(f"{api}/frames?start={len(shown)}").json()["frames"] == []
    log = client.get(f"{api}/log").json()["frames"]
    assert log == [{k: v for k, v in f.items() if k != "svg"} for f in shown.frames(0, 10**6)]


def test_a_chunk_is_capped(client, match, monkeypatch):
    monkeypatch.setattr(matches, "MAX_COUNT", 4)
    frames = client.get(f"{match[1]}/frames?start=0&count=1000").json()["frames"]
    assert [frame["step"] for frame in frames] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "query", ["start=-1", "start=x", "count=0", "count=1e3", "start=99999", "start=%20"]
)
def test_a_bad_number_is_a_400_page(client, match, query):
    response = client.get(f"{match[1]}/frames?{query}")
    assert response.status_code == 400
    assert "<h1>Bad request</h1>" in response.text and "Traceback" not in response.text


def test_a_seats_view_is_the_operators_only(client, operator, match):
    page_url, api, record = match
    for url in (f"{page_url}?seat=0", f"{api}/frames?seat=0", f"{api}/log?seat=1"):
        refused = client.get(url)
        assert refused.status_code == 403 and "sign in" in refused.text
    page = operator.get(f"{page_url}?seat=1")
    assert page.status_code == 200 and 'id="seat-select"' in page.text
    assert json.loads(block(page.text, "match-data"))["viewer"] == 1
    frames = operator.get(f"{api}/frames?seat=1&count=200").json()["frames"]
    assert frames == replay(record, 1).frames(0, 200)
    decisions = [frame["decision"] for frame in frames if frame["decision"]]
    assert decisions and {decision["seat"] for decision in decisions} == {1}
    assert operator.get(f"{api}/frames?seat=2").status_code == 400  # two seats: 0 and 1
    assert operator.get(f"{api}/frames?seat=one").status_code == 400
    assert TOKEN not in page.text


@pytest.mark.parametrize(
    "path",
    [
        "/t/cup/m/..%2F..%2Fadmiralty",
        "/t/cup/m/%2e%2e",
        "/t/..%2Fcup/m/x",
        "/t/cup/m/.hidden",
        "/t/cup/m/%2Fetc%2Fpasswd",
        "/t/cup/m/" + "a" * 200,
        "/t/cup/m/no-such-match",
        "/t/no-such-cup/m/x",
        "/api/t/cup/m/..%2F..%2Fadmiralty/frames",
        "/api/t/cup/m/no-such-match/log",
    ],
)
def test_a_bad_or_unknown_id_is_a_404_page(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "<h1>Not found</h1>" in response.text and "Traceback" not in response.text


def test_a_record_linked_from_outside_the_records_folder_is_not_served(web_data, tmp_path):
    outside = tmp_path / "secret.jsonl.gz"
    source = web_data.records / web_data.tournament / f"{web_data.match_ids[0]}.jsonl.gz"
    outside.write_bytes(source.read_bytes())
    records = tmp_path / "records"
    (records / "cup").mkdir(parents=True)
    (records / "cup" / "inside.jsonl.gz").symlink_to(source)
    (records / "cup" / "escape.jsonl.gz").symlink_to(outside)
    client = TestClient(create_app(WebConfig(web_data.db, records, TOKEN)))
    assert client.get("/t/cup/m/escape").status_code == 404
    assert client.get("/t/cup/m/inside").status_code == 404  # it resolves outside too
    record = matches.tournament_record("cup", web_data.match_ids[0])
    assert matches.record_path(web_data.records, record) == source


def test_live_pages_need_a_configured_referee(client):
    for path in ("/live", "/live/jamaica-1", "/live/jamaica-1/events"):
        assert client.get(path).status_code == 404


# -- live --------------------------------------------------------------------------------


def events(response) -> list[tuple[str, dict]]:
    """Server-sent events as they arrive: (kind, data)."""
    kind = None
    for line in response.iter_lines():
        if line.startswith("event: "):
            kind = line.removeprefix("event: ")
        elif line.startswith("data: "):
            yield kind, json.loads(line.removeprefix("data: "))


@pytest.fixture(scope="module")
def referee():
    with watchable_referee(REFEREE_TOKEN) as served:
        yield served


def start_match(address: str, bots: list[str], round_cap: int) -> str:
    with remote_referee(address, REFEREE_TOKEN) as remote:
        return remote.create("jamaica", bots, 5, {"round_cap": round_cap}).match_id


def test_a_running_match_is_relayed_as_frames(web_data, referee):
    address, bots = referee
    match_id = start_match(address, bots, round_cap=30)
    client = client_for(web_data, server=address, server_token=REFEREE_TOKEN)
    listed = client.get("/live")
    assert listed.status_code == 200 and f'href="/live/{match_id}"' in listed.text
    assert REFEREE_TOKEN not in listed.text
    page = client.get(f"/live/{match_id}")
    assert page.status_code == 200 and f'data-events-url="/live/{match_id}/events"' in page.text
    with client.stream("GET", f"/live/{match_id}/events") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        received = []
        for kind, data in events(response):
            received.append((kind, data))
            if len(received) == 4:
                break
    (kind, header), *frames = received
    assert kind == "header" and header["game"] == "jamaica" and header["viewer"] is None
    assert header["seats"] == ["steady", "steady"] and header["names"][1] == "steady #2"
    assert [kind for kind, _ in frames] == ["frame"] * 3
    for _, frame in frames:
        assert list(frame) == ["step", "round", "svg", "log", "decision", "incidents"]
        assert frame["svg"].startswith("<svg") and frame["decision"] is None
    assert any(frame["log"] for _, frame in frames)
    with remote_referee(address, REFEREE_TOKEN) as remote:
        assert remote.get(match_id).status == referee_pb2.MATCH_STATUS_RUNNING


def test_the_operator_watches_a_seat_to_the_end(web_data, referee):
    address, bots = referee
    match_id = start_match(address, bots, round_cap=2)
    spectator = client_for(web_data, server=address, server_token=REFEREE_TOKEN)
    assert spectator.get(f"/live/{match_id}/events?seat=0").status_code == 403
    operator = client_for(web_data, server=address, server_token=REFEREE_TOKEN)
    operator.post("/signin", data={"token": TOKEN})
    with operator.stream("GET", f"/live/{match_id}/events?seat=0") as response:
        received = list(events(response))
    kinds = [kind for kind, _ in received]
    assert kinds[0] == "header" and kinds[-2:] == ["result", "end"]
    assert received[0][1]["viewer"] == 0
    decisions = [data["decision"] for kind, data in received if kind == "frame"]
    assert any(decisions) and {d["seat"] for d in decisions if d} == {0}
    placements = received[-2][1]["placements"]
    assert sorted(p["place"] for p in placements)[0] == 1


def test_an_unknown_live_match_says_so_in_the_stream(web_data, referee):
    client = client_for(web_data, server=referee[0])
    with client.stream("GET", "/live/jamaica-0000/events") as response:
        received = list(events(response))
    assert [kind for kind, _ in received] == ["failure", "end"]
    assert "not_found" in received[0][1]["message"]
    listed = client.get("/live")  # no referee token: no list, but a sentence saying why
    assert listed.status_code == 200 and "admin token" in unescape(listed.text)


def test_the_stream_is_closed_with_the_browser(web_data, referee, monkeypatch):
    """Leaving the page cancels the Watch call, even while it waits for the next frame."""
    address, bots = referee
    match_id = start_match(address, bots, round_cap=30)
    cancelled = []
    real = matches.referee_channel

    def watched(server: str):
        channel = real(server)
        stub_call = channel.unary_stream

        def unary_stream(*args, **kwargs):
            method = stub_call(*args, **kwargs)

            def call(request, *a, **k):
                rendezvous = method(request, *a, **k)
                rendezvous.add_done_callback(lambda c: cancelled.append(c.cancelled()))
                return rendezvous

            return call

        channel.unary_stream = unary_stream  # type: ignore[method-assign]
        return channel

    monkeypatch.setattr(matches, "referee_channel", watched)
    client = client_for(web_data, server=address)
    with client.stream("GET", f"/live/{match_id}/events") as response:
        next(events(response))
    deadline = time.monotonic() + 5
    while not cancelled and time.monotonic() < deadline:
        time.sleep(0.01)
    assert cancelled == [True]


def test_no_page_names_the_referee_token(web_data, referee):
    client = client_for(web_data, server=referee[0], server_token=REFEREE_TOKEN)
    client.post("/signin", data={"token": TOKEN})
    for path in ("/live", "/live/jamaica-1", "/live/jamaica-1?seat=1"):
        assert REFEREE_TOKEN not in client.get(path).text
