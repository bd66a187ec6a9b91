"""The readings the engine takes where the rules are open (docs/games/blackbeard.md,
"Decisions where the rules are open"), each pinned on a concrete position with set dice."""

from __future__ import annotations

from bb_helpers import answer, keys, pass_polls, position, request

from admiralty.games.blackbeard import arrange
from admiralty.games.blackbeard.pieces import INVOLUNTARY
from admiralty.games.blackbeard.table import DATA

SANTO_DOMINGO, TORTUGA, SAN_JUAN = 32, 35, 52
CAREENING, FAIR_WINDS, WEAR = (
    DATA.card(key).number for key in ("careening", "fair_winds", "wear_and_tear")
)


def test_allies_in_one_port_share_one_repair_roll():
    """[blackbeard §11.14, §9.44] Vane (2 Combat hits) and Low (2 Speed hits) allied at San
    Juan: one roll of 5 gives 3 repairs, shared 2 and 1, the odd one to the ship the player
    names; each share is then split on its own ship."""
    state, seat, vane = position(port=SAN_JUAN)
    low = arrange.pirate(state, seat, "LW", "EC", port=SAN_JUAN)
    state.table.ally(vane, low)
    vane.ship.combat, low.ship.speed = 4, 3
    arrange.actions(state, seat, 1)
    arrange.rig(state, 5)
    answer(state, "pirate:LW")
    answer(state, "action:in_port")
    events = []
    while request(state).kind in ("anti_pirate", "cunning", "skull_and_crossbones"):
        events += answer(state, "pass" if request(state).kind == "anti_pirate" else "accept")
    assert request(state).kind == "repair_share"
    assert keys(state) == ["pirate:LW", "pirate:VA"]
    events += answer(state, "pirate:VA")
    assert [e.data["hits"] for e in events if e.kind == "repair_rolled"] == [3]
    assert (vane.ship.combat, vane.ship.speed) == (6, 3)
    assert (low.ship.combat, low.ship.speed) == (5, 4)


def test_another_of_the_players_pirates_may_locate_a_located_merchant_again():
    """[blackbeard §8.15, §8.21] Vane located the Brig off Santo Domingo; Bonnet, his
    player's other pirate (not allied), locates it again with +1 (4 + 2 + 1 = 7): the
    right to Loot passes to Bonnet, and Vane must locate it again himself."""
    state, seat, vane = position()
    merchant = arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    arrange.pirate(state, seat, "BO", "EC")
    assert "locate" in state.actions.legal_actions(state.table.pirates["BO"])
    arrange.actions(state, seat, 1)
    arrange.rig(state, 4)
    answer(state, "pirate:BO")
    answer(state, "action:locate")
    if request(state).kind == "locate_target":
        answer(state, f"port:{SANTO_DOMINGO}")
    pass_polls(state)
    assert merchant.located_by == "BO"
    assert "loot" not in state.actions.legal_actions(vane)
    assert "locate" in state.actions.legal_actions(vane)


def test_the_losers_information_is_one_item_of_the_duel_spoils():
    """[blackbeard §15.11, §8.46] Low wins the duel and takes items: one question for all
    of Bonnet's Information, which adds to his own port by port."""
    state = arrange.ready(3, 1)
    table = state.table
    seat = table.order[0]
    arrange.remove_pirates(state)
    low = arrange.pirate(state, seat, "LW", "EC", port=SAN_JUAN)
    bonnet = arrange.pirate(state, table.order[1], "BO", "EC", port=SAN_JUAN)
    bonnet.ship.revelry = INVOLUNTARY
    low.information, bonnet.information = {SAN_JUAN: 1}, {SAN_JUAN: 2, SANTO_DOMINGO: 5}
    arrange.actions(state, seat, 1)
    arrange.rig(state, 3, 5, 6, 6, 6, 6, 1, 1)  # a tie (7 and 7), then 24 against 2
    answer(state, "pirate:LW")
    answer(state, "action:grab")
    pass_polls(state)
    answer(state, "take")
    assert request(state).kind == "spoil_item" and keys(state) == ["no", "yes"]
    answer(state, "yes")
    assert low.information == {SAN_JUAN: 3, SANTO_DOMINGO: 5}
    assert request(state).kind != "spoil_item"


def test_careening_needs_a_speed_hit_to_remove():
    """[blackbeard §R4.5, §R4.2] Careening (an AND card) names a pirate At Sea with a Speed
    hit: with Vane undamaged it cannot be played at all; with one hit it can."""
    state, seat, vane = position()
    arrange.hand(state, seat, [CAREENING, WEAR])
    assert not state.cards.event_possible(CAREENING)
    arrange.cards(state, seat)
    assert f"card:{CAREENING}" not in keys(state)
    vane.ship.speed = 2
    assert state.cards.event_pirates(CAREENING) == [vane]
    arrange.cards(state, seat)
    answer(state, f"card:{CAREENING}")
    assert vane.ship.speed == 3


def test_fair_winds_goes_on_through_a_transit_box_not_back():
    """[blackbeard §R4.5, §7.2] Vane sails from South America into the transit box: his
    second step is to the Gold Coast, its far side, or nothing; a pirate who starts in the
    box may leave it by either side."""
    state, seat, vane = position(area="SM")
    arrange.hand(state, seat, [FAIR_WINDS, WEAR])
    arrange.cards(state, seat)
    answer(state, f"card:{FAIR_WINDS}")
    answer(state, "transit:T1")
    assert keys(state) == ["move:GC", "stop"]
    answer(state, "move:GC")
    assert vane.area == "GC"
    other, seat2, _ = position(area="T1")
    arrange.hand(other, seat2, [FAIR_WINDS, WEAR])
    arrange.cards(other, seat2)
    answer(other, f"card:{FAIR_WINDS}")
    assert keys(other) == ["move:SM", "move:GC"]


def test_a_kc_may_destroy_a_pirate_port_holding_only_his_own_players_pirate():
    """[blackbeard §10.41, §10.22] Teach, of the KC's own player, is the only pirate at
    Tortuga: he is not counted, so the port falls at once with no roll; Teach is put At
    Sea with the rest of the port's pirates, untouched."""
    state, seat, _vane = position(area="WC")
    other = state.table.order[1]
    teach = arrange.pirate(state, other, "TE", "EC", port=TORTUGA)
    arrange.kc(state, other, "K1", "EC")
    arrange.hand(state, other, [])
    arrange.actions(state, seat, 1)
    answer(state, "pirate:VA")
    answer(state, "action:move")
    answer(state, "move:SA")
    while request(state).seat != other:
        answer(state, "pass")
    assert f"kc_port:{TORTUGA}" in keys(state)
    events = answer(state, f"kc_port:{TORTUGA}")
    attack = next(e.data for e in events if e.kind == "kc_port_attack")
    assert attack["defenders"] == [] and state.table.ports[TORTUGA].destroyed
    assert (teach.port, teach.area, teach.ship.combat) == (None, "EC", 5)
