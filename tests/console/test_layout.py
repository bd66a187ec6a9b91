"""The final screen of each game at every terminal size down to 60x20: it fits, the newest
log line and the winner's row are on it; the board gives way first, in order."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from admiralty.console.screen import MatchScreen
from admiralty.games import load_game
from admiralty.referee.timeline import decision_of, frame_after

NAMES = ["red", "blue", "green"]
SIZES = [(120, 40), (80, 24), (60, 20)]


def finished(game_name: str, viewer: int | None, seed: int = 4) -> MatchScreen:
    """A whole random 3-player match on a screen, ended with its result."""
    game = load_game(game_name)
    state, rng = game.new_game(3, seed), random.Random(seed)
    screen = MatchScreen(game_name, game.static_info(), NAMES, viewer=viewer)
    screen.show(frame_after(0, state.setup_events, state, viewer))
    step = 0
    while state.outcome() is None:
        step += 1
        request = state.pending()[0]
        index = rng.randrange(len(request.options))
        decision = decision_of(step, request, index, 3.0)
        screen.show(frame_after(step, state.apply(request.seat, index), state, viewer, decision))
    outcome = state.outcome()
    screen.finish(
        {
            "placements": [
                {"seat": seat, "bot": NAMES[seat], "place": place, "score": score}
                for seat, (place, score) in enumerate(
                    zip(outcome.places, outcome.scores, strict=True)
                )
            ],
            "incidents": [],
        }
    )
    return screen


@pytest.fixture(scope="module", params=["jamaica", "black_fleet", "blackbeard"])
def screens(request):
    return {viewer: finished(request.param, viewer) for viewer in (None, 0)}


def render(screen: MatchScreen, width: int, height: int) -> list[str]:
    console = Console(width=width, height=height, file=io.StringIO(), color_system=None)
    console.print(screen)
    return console.file.getvalue().splitlines()


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("viewer", [None, 0])
def test_the_final_screen_fits_with_the_newest_line_and_the_winner(screens, viewer, width, height):
    screen = screens[viewer]
    lines = render(screen, width, height)
    assert len(lines) <= height and max(len(line) for line in lines) <= width
    text = " ".join(line.strip("│ ") for line in lines)
    assert " ".join(screen.log[-1].plain.split()) in " ".join(text.split())
    assert screen.log[-1].plain.startswith("Game over")
    winner = next(p for p in screen.result["placements"] if p["place"] == 1)
    assert any(
        line.split("│")[1:4]
        == [
            "     1 ",
            f"    {winner['seat']} ",
            f" {NAMES[winner['seat']]}".ljust(len(line.split("│")[3])),
        ]
        for line in lines
        if line.count("│") >= 4
    )


def test_the_board_gives_way_before_the_log_and_the_result(screens):
    screen = screens[None]
    tall, short = render(screen, 120, 80), render(screen, 60, 20)
    assert len(short) <= 20
    assert len(tall) > len(short)
    header = tall[0]
    assert short[0] == header[:60].rstrip() or short[0].startswith(header.split(" · ")[0])
