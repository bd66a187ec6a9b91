"""The rules' optional setup [blackbeard §3.0]: the Pirate draft (step 6), secret and random
placement (step 7). Each option changes the requests a seat sees."""

from __future__ import annotations

import pytest
from bb_helpers import answer, keys, playout, request

from admiralty.games.base import Window
from admiralty.games.blackbeard import Blackbeard
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.data import load
from admiralty.games.blackbeard.setup import placement_options
from admiralty.wire import codec_for, options_to_pb

DATA = load()
AREAS = list(DATA.areas)


def _first_picker(state) -> int:
    rolled = [e.data for e in state._setup_events if e.kind == "draft_rolled"]
    last = rolled[-1]["rolls"]
    best = max(last.values())
    (winner,) = [int(seat) for seat, roll in last.items() if roll == best]
    return winner


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_draft_picks_in_snake_order_among_the_remaining_cards(players):
    """[blackbeard §3.0] Each rolls 1d6 (a roll apart from the Player Order's) for the
    first pick; picks go on clockwise, then back (snake), one card each, among the Pirate
    cards still in the deck, as many as the deal would give."""
    state = Blackbeard().new_game(players, 7, {"pirate_selection": "draft"})
    table = state.table
    assert all(not seat.pirate_cards for seat in table.seats)
    first = _first_picker(state)
    dealt = table.limits.dealt
    order = mech.draft_order(first, players, dealt)
    assert order[:players] == [(first + k) % players for k in range(players)]
    assert order[players : 2 * players] == order[:players][::-1]
    picked: dict[int, list[str]] = {seat: [] for seat in range(players)}
    for pick, seat in enumerate(order):
        open_request = request(state)
        assert (open_request.kind, open_request.seat, open_request.window) == (
            "draft_pick",
            seat,
            Window.SETUP,
        )
        remaining = sorted(set(DATA.pirates) - {c for cards in picked.values() for c in cards})
        assert keys(state) == [f"pirate:{card}" for card in remaining]
        card = remaining[(pick * 5) % len(remaining)]
        events = answer(state, f"pirate:{card}")
        assert {"seat": seat, "pirate": card, "pick": pick} in [
            e.data for e in events if e.kind == "pirate_drafted"
        ]
        picked[seat].append(card)
    for seat in range(players):
        assert table.seats[seat].pirate_cards == sorted(picked[seat])
    assert len(table.pirate_deck) == len(DATA.pirates) - players * dealt
    assert request(state).kind == "deploy_card"  # then deployment, as usual


def test_draft_order_for_three_and_four_players():
    """[blackbeard §3.0] The standard snake the rules' lost examples stood for: 4 players
    A B C D D C B A; 3 players A B C C B A A B C."""
    assert mech.draft_order(0, 4, 2) == [0, 1, 2, 3, 3, 2, 1, 0]
    assert mech.draft_order(0, 3, 3) == [0, 1, 2, 2, 1, 0, 0, 1, 2]


def test_secret_placement_is_one_sealed_window_revealed_at_once():
    """[blackbeard §3.0] Cards and ships are chosen in Player Order as usual, but no sea
    area: every seat then writes down the areas of its pirates in one SEALED window; no
    pirate is on the map until every answer is in."""
    state = Blackbeard().new_game(3, 4, {"initial_placement": "secret"})
    table = state.table
    chosen = {}
    while len(state.pending()) == 1:
        open_request = request(state)
        assert open_request.kind in ("deploy_card", "deploy_ship")
        if open_request.kind == "deploy_card":
            if "pass" in keys(state):
                answer(state, "pass")
                continue
            card = open_request.options[0].payload["pirate"]
            chosen[open_request.seat] = card
        state.apply(open_request.seat, 0)
    sealed = state.pending()
    assert [r.seat for r in sealed] == [0, 1, 2]
    assert {r.kind for r in sealed} == {"deploy_areas"}
    assert {r.window for r in sealed} == {Window.SEALED}
    assert len({r.window_id for r in sealed}) == 1
    assert not table.pirates
    for r in sealed:
        assert r.options[0].payload == {"pirates": [chosen[r.seat]], "areas": ["NA"]}
        assert len(r.options) == len(AREAS)
    written = {0: "GC", 1: "EC", 2: "GC"}
    for seat in (2, 0):
        mine = next(r for r in state.pending() if r.seat == seat)
        events = state.apply(seat, [o.key for o in mine.options].index(f"areas:{written[seat]}"))
        assert [e.kind for e in events] == ["placement_written"]
        assert not table.pirates
        for viewer in range(3):
            assert state.view(viewer)["pirates"] == []
    mine = next(r for r in state.pending() if r.seat == 1)
    events = state.apply(1, [o.key for o in mine.options].index("areas:EC"))
    revealed = next(e.data for e in events if e.kind == "placement_revealed")
    assert revealed["areas"] == {str(seat): {chosen[seat]: written[seat]} for seat in (0, 1, 2)}
    assert {pid: p.area for pid, p in table.pirates.items()} == {
        chosen[seat]: written[seat] for seat in (0, 1, 2)
    }
    assert request(state).kind == "choose_card"


def test_secret_placement_options_cover_every_assignment_and_travel_the_wire():
    """[blackbeard §3.0] Two pirates: 10 x 10 ways to write their areas down; the payload
    names the pirates and their areas, aligned, and fills its typed message."""
    options = placement_options(("TE", "VA"))
    assert len(options) == len(AREAS) ** 2
    assert options[1].payload == {"pirates": ["TE", "VA"], "areas": ["NA", "CA"]}
    codec = codec_for("blackbeard")
    message = options_to_pb(codec, options[:2])[1]
    typed = getattr(message, codec.field)
    assert list(typed.pirates) == ["TE", "VA"] and list(typed.areas) == ["NA", "CA"]


def test_random_placement_rolls_a_d66_for_the_area_of_that_port():
    """[blackbeard §3.0, §R1.5.3] No area is asked: a d66 names a port, and the pirate
    starts in its sea area (Bermuda's is North Atlantic)."""
    state = Blackbeard().new_game(4, 3, {"initial_placement": "random"})
    table = state.table
    seen = []
    while table.turn.phase == "setup" or table.turn.number == 0:
        open_request = request(state)
        assert open_request.kind != "deploy_area"
        events = state.apply(open_request.seat, 0)
        seen += [e.data for e in events if e.kind == "placement_rolled"]
    assert seen
    for rolled in seen:
        assert rolled["area"] == DATA.ports[rolled["roll"]].areas[0]
        assert table.pirates[rolled["pirate"]].area == rolled["area"]
    assert DATA.ports[41].areas[0] == "NA"


@pytest.mark.parametrize(
    "options",
    [
        {"pirate_selection": "draft"},
        {"initial_placement": "secret"},
        {"initial_placement": "random"},
        {"pirate_selection": "draft", "initial_placement": "secret"},
    ],
)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_games_end_with_every_setup_option(options, players):
    """[blackbeard §3.0] Every alternative plays to the end."""
    state, _ = playout(players, 11, options)
    assert state.outcome() is not None
