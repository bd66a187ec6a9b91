"""The Jamaica console: key facts on an 80x24 screen, spectators' privacy, replays."""

from __future__ import annotations

import asyncio
import io
import random
import re

import grpc
from e2e_helpers import ScriptedBot, play, served_referee, serving
from rich.console import Console

from admiralty.console.feeds import replay_screen, watch_remote
from admiralty.console.jamaica import describe
from admiralty.console.screen import MatchScreen, seat_names
from admiralty.games import load_game
from admiralty.referee.launcher import free_port
from admiralty.referee.service import serve_referee
from admiralty.referee.timeline import event_json
from admiralty_sdk.v1 import referee_pb2, referee_pb2_grpc

LETTERS = {"gold": "g", "food": "f", "gunpowder": "p"}


def random_bot(seed: int) -> ScriptedBot:
    rng = random.Random(seed)
    return ScriptedBot(f"b{seed}", lambda request: rng.randrange(len(request.options)))


def render(screen, width=80, height=24) -> str:
    console = Console(width=width, height=height, record=True, color_system=None)
    console.print(screen)
    return console.export_text()


def mid_game(seed=3, steps=120):
    game = load_game("jamaica")
    state, rng = game.new_game(4, seed), random.Random(seed)
    screen = MatchScreen("jamaica", game.static_info(), ["red", "blue", "green", "gold"])
    for _ in range(steps):
        request = state.pending()[0]
        for event in state.apply(request.seat, rng.randrange(len(request.options))):
            if event.visible_to(None):
                screen.update(event_json(event))
        screen.update(view=state.view(None))
    return state, screen


def test_a_mid_game_screen_shows_round_captain_dice_ships_holds_and_log():
    state, screen = mid_game()
    text = render(screen)
    lines = text.splitlines()
    view = state.view(None)
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    assert f"round {view['round']}" in lines[0]
    assert "Captain " + ["red", "blue", "green", "gold"][view["captain"]] in lines[0]
    for player in view["players"]:
        name = ["red", "blue", "green", "gold"][player["seat"]]
        row = next(line for line in lines if line.startswith(name))
        assert re.search(rf"\b{player['space']}\b", row)
        for hold in player["holds"]:
            if hold["kind"]:
                assert f"{hold['count']}{LETTERS[hold['kind']]}" in row
        assert row.rstrip().endswith(str(player["score"]))
    ships_row = next(line for line in lines if line.startswith("ships "))
    for player in view["players"]:
        assert ships_row[6 + player["space"]] != " "
    assert "log" in text and "plays" in text


def test_a_narrow_terminal_drops_the_track_but_keeps_the_players():
    _, screen = mid_game()
    text = render(screen, width=50)
    assert "track" not in text
    assert all(name in text for name in ("red", "blue", "green", "gold"))
    assert max(len(line) for line in text.splitlines()) <= 50


def test_combat_is_told_in_plain_words():
    names = seat_names(["Red", "Blue"])
    events = [
        {
            "kind": "combat_result",
            "data": {
                "attacker": 0,
                "defender": 1,
                "winner": 0,
                "loser": 1,
                "faces": [8, 6],
                "gunpowder": [2, 0],
                "strengths": [10, 6],
            },
        },
        {
            "kind": "spoils",
            "data": {
                "winner": 0,
                "loser": 1,
                "loot": "hold",
                "hold": 2,
                "kind": "gold",
                "count": 5,
            },
        },
    ]
    screen = MatchScreen("jamaica", load_game("jamaica").static_info(), ["Red", "Blue"])
    for event in events:
        screen.update(event)
    assert screen.log[-1].plain == (
        "Red attacks Blue with 2 gunpowder: 8+2 vs 6+0 — Red wins — Red takes 5 gold"
    )
    assert describe({"kind": "card_chosen", "data": {"seat": 1}}, names) is None


ADMIN = (("authorization", "Bearer secret"),)


def test_a_watched_live_match_never_shows_a_hidden_card():
    """§12: hands, chosen cards and face-down treasures stay hidden from spectators."""

    frames = []

    async def main():
        bots = [random_bot(i) for i in range(3)]
        async with serving(bots) as clients:
            port = free_port()
            server = await serve_referee("127.0.0.1", port, "secret")
            try:
                async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                    stub = referee_pb2_grpc.RefereeServiceStub(channel)
                    created = await stub.CreateMatch(
                        referee_pb2.CreateMatchRequest(
                            game="jamaica", bots=[c.address for c in clients], seed=9
                        ),
                        metadata=ADMIN,
                    )
                    async for frame in stub.Watch(
                        referee_pb2.WatchRequest(match_id=created.match_id)
                    ):
                        frames.append(frame)
            finally:
                await server.stop(None)

    asyncio.run(main())
    assert frames[0].HasField("match_info") and frames[-1].HasField("result")
    assert len(frames[-1].result.placements) == 3
    events = [f.event for f in frames if f.HasField("event")]
    assert any(e.kind == "card_revealed" for e in events)
    for event in events:
        assert not event.audience
        assert not (
            event.kind in ("card_chosen", "hand_dealt", "cards_drawn")
            and ("card" in event.data or "hand" in event.data or "cards" in event.data)
        )
    for frame in frames:
        if frame.HasField("view"):
            for player in frame.view["players"]:
                assert player["hand"] is None
                assert player["chosen_card"] is None
                if frame.view["phase"] != "game_over":
                    assert player["treasures"] is None


def test_a_replay_at_full_speed_ends_on_the_recorded_result(tmp_path):
    record = tmp_path / "m.jsonl.gz"
    bots = [random_bot(i) for i in range(2)]
    report = asyncio.run(play(bots, seed=17, record_path=record))
    console = Console(width=80, height=40, color_system=None, file=io.StringIO())
    screen = replay_screen(record, console)
    assert screen.result["placements"] == report.to_json()["placements"]
    assert screen.view["outcome"]["scores"] == report.scores
    final = render(screen, height=40)
    for placement in report.to_json()["placements"]:
        assert re.search(
            rf"{placement['place']}[\s│]+{placement['seat']}[\s│]+"
            rf"b{placement['seat']}[\s│]+{placement['score']}",
            final,
        )


def test_admiralty_watch_follows_a_served_match_to_its_final_screen():
    """`admiralty watch`: the spectator screen of a match on a running referee."""
    with (
        served_referee([random_bot(i) for i in range(2)]) as (address, bots),
        grpc.insecure_channel(address) as channel,
    ):
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        created = stub.CreateMatch(
            referee_pb2.CreateMatchRequest(game="jamaica", bots=bots, seed=5), metadata=ADMIN
        )
        console = Console(width=80, height=30, color_system=None, file=io.StringIO())
        screen = watch_remote(address, created.match_id, "", console)
        summary = stub.GetMatch(
            referee_pb2.GetMatchRequest(match_id=created.match_id), metadata=ADMIN
        )
        listed = stub.ListMatches(referee_pb2.ListMatchesRequest(), metadata=ADMIN)
    assert summary.match.status == referee_pb2.MATCH_STATUS_FINISHED
    assert [m.match_id for m in listed.matches] == [created.match_id]
    scores = {p.seat: p.score for p in summary.match.result.placements}
    assert {p["seat"]: p["score"] for p in screen.result["placements"]} == scores
    assert screen.view["phase"] == "game_over"
    assert all(player["hand"] is None for player in screen.view["players"])


def test_no_color_is_honoured(monkeypatch):
    """NO_COLOR (no-color.org): styles such as bold may stay, colours go."""
    _, screen = mid_game()
    monkeypatch.setenv("NO_COLOR", "1")
    console = Console(width=80, height=24, force_terminal=True, file=io.StringIO())
    console.print(screen)
    text = console.file.getvalue()
    assert "\x1b[1m" in text  # still styled
    assert not re.search(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;)", text)  # but never coloured
    monkeypatch.delenv("NO_COLOR")
    coloured = Console(width=80, height=24, force_terminal=True, file=io.StringIO())
    coloured.print(screen)
    assert re.search(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;)", coloured.file.getvalue())
