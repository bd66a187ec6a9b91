"""The Player Turn [blackbeard §4.4]: drawing, the Merchant Phase, card play, the number
of Actions, mutiny, and the end of the game."""

from __future__ import annotations

from bb_helpers import answer, keys, request

from admiralty.games.blackbeard import arrange
from admiralty.games.blackbeard.table import DATA

PARDON, LOM, WEAR, SIGHTING, DOLDRUMS, KC_SURPRISE, FAIR_WINDS = 6, 12, 24, 23, 4, 11, 5


def test_draw_to_four_resolving_must_play_cards_at_once():
    """[blackbeard §4.4] The first General Pardon does nothing and is discarded; the
    player draws again until he holds 4."""
    state = arrange.ready(3, 1)
    table = state.table
    seat = table.order[0]
    arrange.hand(state, seat, [WEAR, WEAR])
    arrange.deck_top(state, [SIGHTING, PARDON, DOLDRUMS])
    arrange.turn(state, seat)
    assert sorted(table.seats[seat].events) == [DOLDRUMS, SIGHTING, WEAR, WEAR]
    assert table.pardons == 1 and not table.pardon_in_force
    assert table.discard[-1] == PARDON


def test_the_third_general_pardon_ends_the_game_and_scores_notoriety():
    """[blackbeard §4.1, §R4.6, §R18.5] Pirates still in play score their NP."""
    state = arrange.ready(3, 1)
    seat = state.table.order[0]
    state.table.pardons = 2
    for pirate in state.table.pirates.values():
        pirate.notoriety = {0: 5, 1: 9, 2: 7}[pirate.owner]
    arrange.hand(state, seat, [WEAR, WEAR, WEAR])
    arrange.deck_top(state, [PARDON])
    arrange.turn(state, seat)
    outcome = state.outcome()
    assert outcome is not None and state.table.end_reason == "general_pardon"
    assert outcome.scores == (5, 9, 7) and outcome.places == (3, 1, 2)
    assert state.pending() == []


def test_merchants_brought_up_to_six_when_fewer_than_five():
    """[blackbeard §4.4] Four on the map: two more."""
    state = arrange.ready(3, 1)
    table = state.table
    for code in sorted(table.merchants)[4:]:
        table.remove_merchant(code)
    arrange.turn(state, table.order[0])
    assert len(table.merchants) == 6
    state2 = arrange.ready(3, 1)
    for code in sorted(state2.table.merchants)[5:]:
        state2.table.remove_merchant(code)
    arrange.turn(state2, state2.table.order[0])
    assert len(state2.table.merchants) == 5


def test_the_phase_ends_only_after_a_card_and_one_actions_card_per_turn():
    """[blackbeard §4.4, §4.51] Warship Sighting is used for its 3 Actions; the Wear and
    Tear cards can then no longer be played, so only the end is left (still asked: whether
    a choice is left depends on the hand)."""
    state = arrange.ready(3, 1)
    table = state.table
    seat = table.order[0]
    arrange.hand(state, seat, [WEAR, WEAR, SIGHTING])
    arrange.cards(state, seat)
    assert keys(state) == [f"card:{SIGHTING}", f"card:{WEAR}"]
    answer(state, f"card:{SIGHTING}")  # AP on his own turn: for Actions only (one option)
    assert table.turn.actions_left == 3 and request(state).kind == "choose_pirate"
    answer(state, "stop")
    assert keys(state) == ["end"]
    answer(state, "end")
    assert table.turn.active == table.order[1] and table.seats[seat].events[:2] == [WEAR, WEAR]


def test_a_diamond_card_gives_the_named_pirates_initiative():
    """[blackbeard §4.52] Teach (Initiative 3) performs all three Actions."""
    state = arrange.ready(3, 1)
    table = state.table
    seat = table.order[0]
    arrange.remove_pirates(state)
    arrange.pirate(state, seat, "TE", "WC")
    arrange.pirate(state, seat, "VA", "WC")
    arrange.hand(state, seat, [KC_SURPRISE, WEAR])
    arrange.cards(state, seat)
    answer(state, f"card:{KC_SURPRISE}")  # AP: for Actions only, applied at once
    assert request(state).kind == "diamond_pirate"
    answer(state, "pirate:TE")
    assert table.turn.actions_left == 3 and table.turn.actions_pirate == "TE"
    assert "pirate:VA" not in keys(state) and "pirate:TE" in keys(state)


def test_the_fallback_when_no_card_can_set_actions():
    """[blackbeard §4.55] Only diamond cards and no pirate on the map: discard a card for
    one Action (here Action K), at most two."""
    state = arrange.ready(3, 1)
    table = state.table
    seat = table.order[0]
    arrange.remove_pirates(state)
    arrange.hand(state, seat, [KC_SURPRISE, KC_SURPRISE])
    arrange.cards(state, seat)
    assert keys(state) == [f"fallback:{KC_SURPRISE}"]
    answer(state, f"fallback:{KC_SURPRISE}")
    assert table.turn.fallbacks == 1 and len(table.seats[seat].events) == 1
    assert table.turn.actions_left == 1 and keys(state) == ["k", "stop"]
    answer(state, "stop")
    assert keys(state) == [f"fallback:{KC_SURPRISE}", "end"]


def test_an_and_card_whose_event_cannot_be_done_sets_no_actions():
    """[blackbeard §4.55, §17.12] No pirate on the map: Careening and Fair Winds (AND cards
    whose Events need a pirate) and two diamond cards cannot set Actions, so the fallback
    is offered; the phase is asked (published) whatever the hand."""
    state = arrange.ready(4, 0)
    seat = state.table.order[1]
    arrange.remove_pirates(state)
    careening, fair_winds = DATA.card("careening").number, DATA.card("fair_winds").number
    ambition = DATA.card("piratical_ambition").number
    arrange.hand(state, seat, [careening, fair_winds, KC_SURPRISE, ambition])
    arrange.cards(state, seat)
    assert request(state).seat == seat and request(state).kind == "choose_card"
    assert set(keys(state)) == {
        f"fallback:{card}" for card in (careening, fair_winds, KC_SURPRISE, ambition)
    }


def test_an_and_card_counts_as_the_actions_card_by_default():
    """[blackbeard §17.12] Fair Winds then Wear and Tear: the AP card cannot be used for
    Actions once Fair Winds was played; with the option off it can."""
    for counts in (True, False):
        state = arrange.ready(3, 1, and_card_counts_as_actions_card=counts)
        seat = state.table.order[0]
        arrange.remove_pirates(state)
        arrange.pirate(state, seat, "VA", "WC")
        arrange.hand(state, seat, [FAIR_WINDS, WEAR])
        arrange.cards(state, seat)
        answer(state, f"card:{FAIR_WINDS}")
        assert request(state).kind == "fair_winds_step"  # the single pirate is named at once
        answer(state, "move:SA")
        answer(state, "stop")
        assert state.table.pirates["VA"].area == "SA" and state.table.turn.actions_left == 1
        answer(state, "stop")
        if counts:
            assert keys(state) == ["end"] and state.table.seats[seat].events == [WEAR]
        else:
            assert keys(state) == [f"card:{WEAR}", "end"]


def test_letter_of_marque_for_its_event_in_a_port_of_the_nation():
    """[blackbeard §4.4, §R4.5] Vane In Port at San Juan receives a Spanish Letter."""
    state = arrange.ready(3, 1)
    table = state.table
    seat = table.order[0]
    arrange.remove_pirates(state)
    arrange.pirate(state, seat, "VA", "EC", port=52)
    arrange.hand(state, seat, [LOM, WEAR])
    arrange.cards(state, seat)
    answer(state, f"card:{LOM}")
    assert keys(state) == ["use:actions", "use:event"]
    answer(state, "use:event")
    assert table.pirates["VA"].ship.letter_of_marque == "spanish"
    assert not table.turn.actions_card_used


def test_scurvy_costs_loyalty_at_the_start_of_the_owners_turn():
    """[blackbeard §R4.5] Card 18's further -1 each of the owner's Player Turns."""
    state = arrange.ready(3, 1)
    seat = state.table.order[0]
    pirate = state.table.pirates_of(seat)[0]
    pirate.ship.scurvy = True
    arrange.turn(state, seat)
    assert pirate.ship.loyalty == 6


def test_a_mutiny_at_loyalty_zero_puts_a_new_captain_in_command():
    """[blackbeard §14.12, §R18.12] Roll 6 above Bellamy's Leadership 5: he is dead, his
    owner scores his 4 NP, and Avery takes the ship with Crew Loyalty 6."""
    state = arrange.ready(3, 1)
    seat = state.table.order[0]
    arrange.remove_pirates(state)
    bellamy = arrange.pirate(state, seat, "BE", "WC")
    bellamy.notoriety, bellamy.net_worth = 4, 900
    bellamy.ship.loyalty, bellamy.ship.holds = 0, [300, 0]
    state.table.seats[seat].pirate_cards = []
    state.table.pirate_deck.remove("AV")
    state.table.seats[seat].pirate_cards.append("AV")
    arrange.rig(state, 6)
    arrange.turn(state, seat)
    answer(state, "accept")  # the owner's roll point: no Cunning re-roll
    assert "BE" not in state.table.pirates and "BE" in state.table.dead
    avery = state.table.pirates["AV"]
    assert (avery.area, avery.ship.holds, avery.ship.loyalty) == ("WC", [300, 0], 6)
    assert (avery.notoriety, avery.net_worth) == (0, 0)
    assert state.table.seats[seat].vp == 4


def test_an_averted_mutiny_costs_loyalty_and_a_crushed_one_nothing():
    """[blackbeard §14.12]"""
    state = arrange.ready(3, 1)
    table = state.table
    seat = table.order[0]
    pirate = table.pirates_of(seat)[0]
    leadership = DATA.pirates[pirate.id].leadership
    pirate.ship.loyalty = 0
    arrange.rig(state, leadership)
    arrange.turn(state, seat)
    if request(state).kind == "cunning":
        answer(state, "accept")
    assert pirate.id in table.pirates and pirate.ship.loyalty == 0


def test_the_round_cap_ends_and_scores_the_game():
    """[blackbeard §R18.5] The safety stop scores as the end of the game."""
    state = arrange.ready(2, 1, round_cap=1)
    while state.outcome() is None:
        open_request = state.pending()[0]
        state.apply(open_request.seat, len(open_request.options) - 1)
    assert state.table.end_reason in ("round_cap", "general_pardon")
    assert state.table.turn.number <= 3
