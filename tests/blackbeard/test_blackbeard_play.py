"""Random games of Blackbeard: they end, keep every total true, copy, replay and redact
as the engine contract asks [blackbeard §R18.5, §R4.6]."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from bb_helpers import playout

from admiralty.games.base import IllegalAction, Outcome
from admiralty.games.blackbeard import Blackbeard, arrange
from admiralty.games.blackbeard.state import BlackbeardState
from admiralty.games.blackbeard.table import DATA

CALM = {"choose_card", "choose_pirate", "anti_pirate"}
"""Requests open only between Actions and sub-decisions: every total must add up there."""


def invariants(state: BlackbeardState) -> None:
    """Decks, pools and pieces conserved; pirates only where the map allows; limits kept."""
    table = state.table
    pending = state.pending()
    calm = not pending or pending[0].kind in CALM
    held = table.event_deck + table.discard + table.held_out
    held += [card for seat in table.seats for card in seat.events]
    held += [1] * sum(p.buried_treasure for p in table.pirates.values())
    if pending and pending[0].kind == "event_pirate" and 1 not in held:
        held.append(1)  # Buried Treasure, played, before it names its pirate
    assert Counter(held) == Counter({c.number: c.copies for c in table.deck_cards.values()})
    assert sorted(table.merchant_pool + [m.id for m in table.merchants.values()]) == sorted(
        DATA.merchants
    )
    cards = table.pirate_deck + list(table.pirates) + table.retired + table.dead
    cards += [card for seat in table.seats for card in seat.pirate_cards]
    cards += [table.challenger.id] if table.challenger is not None else []
    assert sorted(cards) == sorted(DATA.pirates)
    sighted = [table.ap.sighted] if table.ap.sighted is not None else []
    assert sorted(table.warship_pool + list(table.patrols.values()) + sighted) == sorted(
        DATA.warships
    )
    kcs = table.kc_pool + list(table.kcs) + table.kcs_killed
    assert sorted(kc for kc in kcs if DATA.kcs[kc].pool == "named") == sorted(
        kc.id for kc in DATA.kcs.values() if kc.pool == "named"
    )
    assert len(kcs) == len(set(kcs))
    assert len({kc.owner for kc in table.kcs.values()}) == len(table.kcs)  # one each (10.13)
    assert all(kc.area in DATA.areas or kc.area in DATA.transits for kc in table.kcs.values())
    governors = [p.governor for p in table.ports.values() if p.governor]
    assert len(governors) + len(table.anti_governors) + len(table.removed_governors) == 24
    for pirate in table.pirates.values():
        ship = pirate.ship
        kind = DATA.ship_types[ship.type]
        assert pirate.area in DATA.areas or pirate.area in DATA.transits
        if pirate.port is not None:
            assert pirate.area in DATA.ports[pirate.port].areas
            assert not table.ports[pirate.port].destroyed
        assert 0 <= ship.loyalty <= table.loyalty_max
        assert 0 < ship.combat <= kind.combat and table.speed_sunk < ship.speed <= kind.speed
        assert all(d >= 0 for d in ship.holds) and pirate.net_worth >= 0
    for player in table.seats:
        assert len(player.events) <= DATA.setup.event_hand
    if calm:
        ships = [h.id for p in table.pirates.values() for h in p.ship.hostages]
        assert sorted(table.hostage_pool + ships) == sorted(DATA.hostages)
        for pirate in table.pirates.values():
            assert len(pirate.ship.holds) == DATA.ship_types[pirate.ship.type].holds
        for player in table.seats:
            assert len(player.pirate_cards) <= table.limits.hand_limit
            assert len(table.pirates_of(player.seat)) <= table.limits.map_limit


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_and_keep_every_total(players):
    for seed in range(3):
        state, _steps = playout(players, seed, check=invariants)
        assert state.outcome() is not None and state.pending() == []
        assert state.table.end_reason == "general_pardon"
        assert state.table.pardons == 3


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_random_games_end(players):
    """With the default options a random game ends on the 3rd General Pardon."""
    for seed in range(10, 30):
        state, _ = playout(players, seed)
        assert state.table.end_reason == "general_pardon" and state.table.turn.number < 120


def test_random_games_with_other_options_end():
    options = [
        {"game_length": "long"},
        {"general_pardon_copies": 1},
        {"and_card_counts_as_actions_card": False, "map_extra_edges": False},
        {
            "lom_acquisition": "anywhere",
            "bribe_retirement": "cheap",
            "safe_haven_retirement_automatic": True,
            "new_governors_mpi": False,
        },
        {
            "initial_placement": "random",
            "tie_breaks": "shared",
            "scurvy_tick": "every_turn",
            "hurricane_destroy_on": "never",
        },
    ]
    for index, chosen in enumerate(options):
        state, _ = playout(3, 40 + index, chosen, check=invariants)
        assert state.outcome() is not None


def test_same_seed_and_decisions_give_the_same_game():
    first, _ = playout(4, 5)
    second, _ = playout(4, 5)
    assert first.digest() == second.digest()
    assert first.outcome() == second.outcome()


def test_a_clone_is_independent_and_plays_on_as_its_original():
    state = Blackbeard().new_game(3, 9)
    rng = random.Random(1)
    for _ in range(150):
        request = state.pending()[0]
        state.apply(request.seat, rng.randrange(len(request.options)))
    before = state.digest()
    clone = state.clone()
    assert clone.digest() == before
    twin = state.clone()
    for _ in range(100):
        request = clone.pending()[0]
        choice = rng.randrange(len(request.options))
        clone.apply(request.seat, choice)
        twin.apply(request.seat, choice)
        if clone.outcome() is not None:
            break
    assert state.digest() == before
    assert clone.digest() == twin.digest()


READ_ONLY = {"chance", "flow", "limits", "neighbours", "deck_cards"}
"""What a table copy shares with its original: the chance and the flow (each replaced
whole, never changed) and the data read from them."""


def test_a_table_copy_shares_nothing_the_game_changes():
    """A clone is a copy of the table (`Table.copy`) with collaborators built on it: so every
    container of the table, and every piece in one, is the copy's own."""
    state = Blackbeard().new_game(4, 2)
    rng = random.Random(2)
    for _ in range(200):
        request = state.pending()[0]
        state.apply(request.seat, rng.randrange(len(request.options)))
    table, copy = state.table, state.table.copy()
    for name, value in vars(table).items():
        if name in READ_ONLY or isinstance(value, int | str | tuple | Outcome | None):
            continue
        mine = vars(copy)[name]
        assert mine is not value, name
        pieces = [item for item in _items(value) if hasattr(item, "copy")]
        assert not {id(item) for item in pieces} & {id(item) for item in _items(mine)}, name
    assert all(copy.pirates[pid].ship is not pirate.ship for pid, pirate in table.pirates.items())


def _items(container: object) -> list:
    if isinstance(container, dict):
        return list(container.values())
    return list(container) if isinstance(container, list) else []


def test_illegal_answers_change_nothing():
    state = Blackbeard().new_game(3, 4)
    rng = random.Random(2)
    for _ in range(60):
        request = state.pending()[0]
        digest = state.digest()
        others = [seat for seat in range(3) if seat != request.seat]
        for seat, index in (
            (others[0], 0),
            (request.seat, len(request.options)),
            (request.seat, -1),
            (request.seat, True),
            (request.seat, "0"),
        ):
            with pytest.raises(IllegalAction):
                state.apply(seat, index)  # type: ignore[arg-type]
            assert state.digest() == digest
        state.apply(request.seat, rng.randrange(len(request.options)))


def test_views_events_and_snapshots_are_plain_json():
    state = Blackbeard().new_game(4, 6)
    rng = random.Random(3)
    events = list(state.setup_events)
    while state.outcome() is None:
        request = state.pending()[0]
        events += state.apply(request.seat, rng.randrange(len(request.options)))
        if rng.random() < 0.05:
            for viewer in (None, 0, 3):
                view = state.view(viewer)
                assert json.loads(json.dumps(view)) == view
            json.dumps(state.snapshot())
            assert "seed" not in json.dumps(state.view(None))
    for event in events:
        assert json.loads(json.dumps(event.to_json())) == event.to_json()
    outcome = state.outcome()
    assert outcome is not None and state.view(None)["outcome"]["scores"] == list(outcome.scores)


def test_hands_and_pools_are_hidden_from_the_other_seats():
    """[blackbeard §4.68, §6.31] A seat sees its own cards; of the others only the counts."""
    state = arrange.ready(3, 2)
    view = state.view(0)
    assert view["players"][0]["hand"] == state.table.seats[0].events
    assert view["players"][1]["hand"] is None and view["players"][1]["event_cards"] == 4
    assert isinstance(view["event_deck"], int) and isinstance(view["pools"]["hostages"], int)


def twin_of(state: BlackbeardState, observer: int) -> BlackbeardState:
    """The same game except for what `observer` cannot see: another seat's hand, the deck
    orders, a face-down merchant's counter, the pools' contents."""
    twin = state.clone()
    other = next(s for s in range(state.players) if s != observer and s != state.table.turn.active)
    deck = twin.table.event_deck
    swap = next(
        i
        for i, card in enumerate(deck)
        if card not in twin.table.seats[other].events and twin.table.deck_cards[card].cls != "MPI"
    )
    old = twin.table.seats[other].events.pop(0)
    twin.table.seats[other].events.append(deck[swap])
    deck[swap] = old
    twin.table.seats[other].events.sort()
    twin.table.pirate_deck.reverse()
    code = next(c for c, m in sorted(twin.table.merchants.items()) if not m.face_up)
    replaced = twin.table.merchants[code].id
    twin.table.merchants[code].id = twin.table.merchant_pool.pop(0)
    twin.table.merchant_pool = sorted([*twin.table.merchant_pool, replaced])
    return twin


@pytest.mark.parametrize("seed", range(5))
def test_twins_differing_in_hidden_information_look_the_same(seed):
    """Views, the public events and the active seat's requests are the same in both."""
    state = arrange.ready(3, seed)
    observer = state.table.turn.active
    assert observer is not None
    twin = twin_of(state, observer)
    assert state.digest() != twin.digest()
    for viewer in (None, observer):
        assert state.view(viewer) == twin.view(viewer)
    rng = random.Random(seed)
    for _ in range(40):  # the observer's own turn: nothing hidden is drawn
        first, second = state.pending()[0], twin.pending()[0]
        assert (first.seat, first.kind, [o.key for o in first.options]) == (
            second.seat,
            second.kind,
            [o.key for o in second.options],
        )
        if first.seat != observer or first.kind == "choose_card":
            break
        choice = rng.randrange(len(first.options))
        public = [e.to_json() for e in state.apply(first.seat, choice) if e.audience is None]
        assert public == [
            e.to_json() for e in twin.apply(second.seat, choice) if e.audience is None
        ]
        assert state.view(None) == twin.view(None)
