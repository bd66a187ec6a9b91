"""Event cards [blackbeard §R4.5] and the duel of a Booty Grab [blackbeard §15.11]."""

from __future__ import annotations

from bb_helpers import answer, keys, pass_polls, request

from admiralty.games.blackbeard import arrange
from admiralty.games.blackbeard.pieces import INVOLUNTARY, Hostage
from admiralty.games.blackbeard.table import DATA

NEW_GOVERNORS, HURRICANE, STATION_SHIPS, FLEET = 15, 9, 21, 20
BURIED_TREASURE, CAREENING, HARBOUR_PILOT, HEAVY_GUNS, WEAR = 1, 2, 7, 8, 24
SAN_JUAN = 52


def drawn(state, seat, cards, d66=()):
    """`seat` starts a turn and draws `cards` (MPI first) with these dice."""
    arrange.hand(state, seat, [WEAR, WEAR, WEAR])
    arrange.deck_top(state, [*cards, WEAR])
    arrange.rig(state, *d66)
    arrange.turn(state, seat)


def test_new_governors_oust_and_remove_a_pro_pirate_governor():
    """[blackbeard §9.22, §9.24] Two Anti-Pirate Governors: the first by 5-2 to San Juan,
    whose Pro-Pirate Governor leaves the game and whose pirate is put At Sea."""
    state = arrange.ready(3, 1)
    seat = state.table.order[0]
    arrange.remove_pirates(state)
    vane = arrange.pirate(state, state.table.order[1], "VA", "EC", port=SAN_JUAN)
    for port in state.table.ports.values():
        port.governor = None
    state.table.ports[SAN_JUAN].governor = "G01"
    state.table.ports[SAN_JUAN].safe_haven = "VA"
    drawn(state, seat, [NEW_GOVERNORS], (5, 2, 5, 2))
    assert state.table.governor_side(SAN_JUAN) == "anti" and "G01" in state.table.removed_governors
    assert state.table.governor_side(53) == "anti"  # the second, next port from 52
    assert vane.port is None and vane.area == "EC"
    assert state.table.ports[SAN_JUAN].safe_haven is None
    assert len(state.table.anti_governors) == 14


def test_hurricane_storms_pirates_at_sea_and_sweeps_merchants():
    """[blackbeard §R4.5, §R5.4] A d66 of 5-2 strikes the Eastern Caribbean: a storm roll
    of 4 gives Vane 2 Speed hits; its merchants go to the pool; a 6 destroys San Juan."""
    state = arrange.ready(3, 1)
    table = state.table
    seat = table.order[0]
    arrange.remove_pirates(state)
    vane = arrange.pirate(state, seat, "VA", "EC", ship="schooner")
    arrange.merchant(state, 32, "M23")
    drawn(state, seat, [HURRICANE], (5, 2, 4, 6))
    assert request(state).kind == "cunning"  # Vane's owner may re-roll the storm roll
    answer(state, "accept")
    assert vane.ship.speed == 1
    assert (
        not any(code in table.merchants for code in (16, 32, 52, 61)) or len(table.merchants) >= 5
    )  # the Merchant Phase may refill the boxes
    assert table.ports[SAN_JUAN].destroyed


def test_station_ships_put_warships_on_patrol_at_naval_bases():
    """[blackbeard §R4.5, §6.41] d66 1-1 (Boston) and again 1-1: the second goes to the next
    naval base whose area has no warship (Port Royal, Western Caribbean)."""
    state = arrange.ready(3, 1)
    table = state.table
    drawn(state, table.order[0], [STATION_SHIPS], (1, 1, 1, 1))
    assert set(table.patrols) == {"NA", "WC"} and len(table.warship_pool) == 13


def test_spanish_treasure_fleet_to_spanish_caribbean_ports_with_an_escort():
    """[blackbeard §R4.5]"""
    state = arrange.ready(3, 1)
    table = state.table
    for code in list(table.merchants):
        table.remove_merchant(code)
    drawn(state, table.order[0], [FLEET], (1, 1) * 3)
    spanish = {
        c for c, p in DATA.ports.items() if p.nation == "spanish" and p.area in ("WC", "CM", "SM")
    }
    assert {13, 22, 24} <= set(table.merchants) and {13, 22, 24} <= spanish
    assert "CM" in table.patrols


def test_buried_treasure_then_dig_in_the_western_caribbean():
    """[blackbeard §R4.5] The card goes to the pirate; his Action there digs: 5, then 3d6
    = 12, 1,200 doubloons into a hold."""
    state = arrange.ready(3, 1)
    table = state.table
    seat = table.order[0]
    arrange.remove_pirates(state)
    teach = arrange.pirate(state, seat, "TE", "WC")
    arrange.hand(state, seat, [BURIED_TREASURE, WEAR])
    arrange.cards(state, seat)
    answer(state, f"card:{BURIED_TREASURE}")  # the one pirate is named at once
    assert teach.buried_treasure and BURIED_TREASURE not in table.discard
    answer(state, "pirate:TE")
    arrange.rig(state, 5, 4, 4, 4)
    answer(state, "action:dig")
    pass_polls(state)
    answer(state, "hold:1")
    assert teach.ship.holds == [0, 1200] and not teach.buried_treasure
    assert BURIED_TREASURE in table.discard


def test_careening_harbour_pilot_and_heavy_guns():
    """[blackbeard §R4.5]"""
    state = arrange.ready(3, 1)
    seat = state.table.order[0]
    arrange.remove_pirates(state)
    vane = arrange.pirate(state, seat, "VA", "EC")
    vane.ship.speed = 2
    arrange.hand(state, seat, [CAREENING, WEAR])
    arrange.cards(state, seat)
    answer(state, f"card:{CAREENING}")
    assert vane.ship.speed == 4
    arrange.hand(state, seat, [HARBOUR_PILOT, WEAR])
    arrange.cards(state, seat)
    answer(state, f"card:{HARBOUR_PILOT}")
    assert request(state).kind == "event_port"
    answer(state, f"port:{SAN_JUAN}")
    assert vane.information == {SAN_JUAN: 3}
    vane.port = 35
    arrange.hand(state, seat, [HEAVY_GUNS, WEAR])
    arrange.cards(state, seat)
    answer(state, f"card:{HEAVY_GUNS}")
    assert vane.ship.heavy_guns


def test_a_booty_grab_tie_is_a_duel_and_the_winner_takes_what_he_wants():
    """[blackbeard §9.62, §15.11, §15.12] Low 3 + 3 + 1 = 7, Bonnet 5 + 2 = 7: a duel. Low
    rolls 4 dice against Bonnet's 2 and wins: NP 6, Bonnet dead (his owner scores his 5
    NP), Low takes his 900 doubloons and leaves the hostage."""
    state = arrange.ready(3, 1)
    table = state.table
    seat, victim_seat = table.order[0], table.order[1]
    arrange.remove_pirates(state)
    low = arrange.pirate(state, seat, "LW", "EC", port=SAN_JUAN)
    bonnet = arrange.pirate(state, victim_seat, "BO", "EC", port=SAN_JUAN, ship="schooner")
    bonnet.ship.revelry, bonnet.notoriety = INVOLUNTARY, 5
    bonnet.ship.holds = [0, 900, 0]
    table.hostage_pool.remove("H15")
    bonnet.ship.hostages = [Hostage("H15", "english")]
    arrange.actions(state, seat, 1)
    arrange.rig(state, 3, 5, 6, 6, 6, 6, 1, 1)
    answer(state, "pirate:LW")
    answer(state, "action:grab")
    pass_polls(state)
    assert request(state).kind == "spoils"
    answer(state, "take")
    answer(state, "hold:0")
    answer(state, "no")
    assert low.notoriety == 6 and low.ship.holds == [900, 0]
    assert "BO" in table.dead and table.seats[victim_seat].vp == 5
    assert "H15" in table.hostage_pool
    assert request(state).kind == "anti_pirate" or table.turn.active_pirate is None


def test_a_roll_point_offers_cunning_then_skull_and_crossbones():
    """[blackbeard §12.0, §R4.5] Vane (Cunning 2) rolls 1 to Locate: he re-rolls (2: still
    short), then plays Skull and Crossbones for +2 and its Cunning point: 2 + 4 + 2 = 8."""
    state = arrange.ready(3, 1)
    table = state.table
    seat = table.order[0]
    arrange.remove_pirates(state)
    vane = arrange.pirate(state, seat, "VA", "EC", ship="schooner")
    arrange.merchant(state, 32, "M23")
    arrange.hand(state, seat, [19, WEAR])
    arrange.actions(state, seat, 1)
    arrange.rig(state, 1, 2)
    answer(state, "pirate:VA")
    answer(state, "action:locate")
    if "port:32" in keys(state):
        answer(state, "port:32")
    pass_polls_until(state, "cunning")
    assert keys(state) == ["accept", "reroll"]
    answer(state, "reroll")
    assert request(state).kind == "skull_and_crossbones"
    assert keys(state) == ["accept", "skull"]
    answer(state, "skull")
    assert table.merchants[32].located_by == "VA" and vane.cunning_used == 2
    assert 19 in table.discard and 19 not in table.seats[seat].events


def test_the_skull_and_crossbones_offer_does_not_depend_on_the_hand():
    """[blackbeard §R4.5] Without the card the roll point still opens, with "accept" only;
    with no Cunning left it does not open at all."""
    state = arrange.ready(3, 1)
    seat = state.table.order[0]
    arrange.remove_pirates(state)
    vane = arrange.pirate(state, seat, "VA", "EC", ship="schooner")
    arrange.merchant(state, 32, "M23")
    arrange.hand(state, seat, [WEAR, WEAR])
    arrange.actions(state, seat, 2)
    arrange.rig(state, 6, 6)
    answer(state, "pirate:VA")
    answer(state, "action:locate")
    if "port:32" in keys(state):
        answer(state, "port:32")
    pass_polls_until(state, "cunning")
    answer(state, "accept")
    assert request(state).kind == "skull_and_crossbones" and keys(state) == ["accept"]
    pass_polls(state)
    vane.cunning_used = 2
    state.table.merchants[32].located_by = None
    answer(state, "pirate:VA")
    answer(state, "action:locate")
    if "port:32" in keys(state):
        answer(state, "port:32")
    while request(state).kind == "anti_pirate":
        answer(state, "pass")
    assert state.table.merchants[32].located_by == "VA"


def pass_polls_until(state, kind):
    while request(state).kind == "anti_pirate" and request(state).kind != kind:
        answer(state, "pass")
