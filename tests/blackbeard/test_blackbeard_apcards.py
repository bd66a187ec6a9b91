"""The anti-pirate Event cards [blackbeard §R4.3, §R4.5]: each played on a concrete position
with set dice, with its timing, its exact effect and what the Pirate Action does after it;
and the chain of acts inside one window (a card, the KC Reaction it allows, the evasion
and its roll point) [blackbeard §R4.3].

Dice: the anti-pirate roll is thrown before the pirate's roll it is compared with.
"""

from __future__ import annotations

from bb_helpers import answer, keys, request
from test_blackbeard_antipirate import (
    SAN_JUAN,
    SANTO_DOMINGO,
    TORTUGA,
    announce,
    card,
    events,
    looting,
    pass_all,
    point,
    polled,
    position,
    then,
)

from admiralty.games.blackbeard import arrange
from admiralty.games.blackbeard.pieces import INVOLUNTARY, VOLUNTARY
from admiralty.games.blackbeard.table import DATA


def play(state, key):
    """The polled seat plays the card `key`; the events it caused."""
    return answer(state, f"card:{card(key)}")


def holding(state, key, seat_index=1):
    arrange.hand(state, state.table.order[seat_index], [card(key)])


# ---------------------------------------------------------------- Debauchery & Revelry (#3)


def test_revelry_played_during_an_action_takes_effect_at_its_completion():
    """[blackbeard §R4.5, §R4.3] (#3) Played at T-ANN of a Move: nothing yet; the step is
    taken; at completion (before T-END) Vane is in involuntary D&R, Loyalty +1 At Sea."""
    state, seat, vane = position()
    holding(state, "debauchery_and_revelry")
    announce(state, seat, "move", "move:WC")
    play(state, "debauchery_and_revelry")
    assert vane.ship.revelry is None and vane.ship.loyalty == 7
    third = state.table.order[2]
    assert pass_all(state)[-2:] == [(third, "T-ANN"), (third, "T-END")]
    assert vane.area == "WC" and vane.ship.revelry == INVOLUNTARY and vane.ship.loyalty == 8


def test_revelry_at_t_end_takes_effect_at_once():
    """[blackbeard §R4.5] (#3) Played at T-END: at once."""
    state, seat, vane = position()
    holding(state, "debauchery_and_revelry")
    announce(state, seat, "move", "move:WC")
    answer(state, "pass")
    answer(state, "pass")
    assert point(state) == "T-END"
    play(state, "debauchery_and_revelry")
    assert vane.ship.revelry == INVOLUNTARY and vane.ship.loyalty == 8


def test_revelry_at_t_ann_of_a_sack_cancels_the_sack():
    """[blackbeard §R4.5, §9.55] (#3) Vane has just taken San Juan: D&R at T-ANN
    of the Sack takes effect at once and the Sack is lost; T-END opens."""
    state, seat, vane = position(port=SAN_JUAN)
    vane.sack_pending = SAN_JUAN
    holding(state, "debauchery_and_revelry")
    announce(state, seat, "sack")
    assert point(state) == "T-ANN"
    cancelled = [
        e.data for e in play(state, "debauchery_and_revelry") if e.kind == "action_cancelled"
    ]
    assert cancelled == [{"pirate": "VA", "action": "sack", "why": "debauchery"}]
    assert vane.ship.revelry == INVOLUNTARY and vane.ship.loyalty == 8
    assert polled(state)[:2] == (state.table.order[2], "T-END")
    pass_all(state)
    assert not state.table.ports[SAN_JUAN].destroyed and vane.port == SAN_JUAN


def test_revelry_deferred_then_the_action_cancelled_takes_effect_at_once():
    """[blackbeard §R4.5, §6.45] (#3) D&R at T-ANN of a Loot, then order[2]'s patrol: Vane
    evades (no D&R penalty yet), the Loot is lost, and the D&R takes effect before T-END."""
    state, _seat, vane = looting("debauchery_and_revelry")
    arrange.patrol(state, "EC", "W01")
    play(state, "debauchery_and_revelry")
    assert keys(state) == ["pass", "patrol"]
    answer(state, "patrol")
    arrange.rig(state, 1, 2)  # 1 + 4 against 2 + 3: escaped
    answer(state, "evade")
    assert vane.ship.revelry == INVOLUNTARY and "M23" in state.table.merchant_pool
    # T-END polls nobody: both used their AP Action, and no KC
    assert request(state).kind == "choose_card"


# ---------------------------------------------------------------- Doldrums (#4)


def test_doldrums_cancels_a_move_and_its_first_half():
    """[blackbeard §R4.5] (#4) Speed -1, the second Move of a step: Doldrums at its T-ANN
    loses it and the first half; Vane stays."""
    state, seat, vane = position()
    vane.ship.speed, vane.half_move = -1, "move:WC"
    holding(state, "doldrums")
    announce(state, seat, "move", "move:WC")
    play(state, "doldrums")
    assert vane.half_move is None and vane.area == "EC"
    # the Action cancelled: the T-ANN window closes, T-END opens [blackbeard §R4.3]
    assert pass_all(state) == [(state.table.order[2], "T-END")]
    assert vane.area == "EC"


def test_doldrums_not_for_a_move_into_a_port():
    """[blackbeard §R4.5] (#4) Not into or out of a port."""
    state, seat, _vane = position()
    holding(state, "doldrums")
    announce(state, seat, "move", f"port:{SANTO_DOMINGO}")
    assert keys(state) == ["pass"]


# ---------------------------------------------------------------- Informer (#10)


def test_informer_ousts_him_with_no_np_and_the_action_is_lost():
    """[blackbeard §R4.5] (#10) Recover at Santo Domingo (Spanish): At Sea, D&R kept, no NP,
    the Recover lost."""
    state, seat, vane = position(port=SANTO_DOMINGO)
    vane.ship.revelry = VOLUNTARY
    holding(state, "informer")
    announce(state, seat, "recover")
    play(state, "informer")
    assert vane.port is None and vane.area == "EC" and vane.notoriety == 0
    assert vane.ship.revelry == VOLUNTARY and point(state) == "T-END"


def test_informer_not_in_a_pirate_port_nor_the_nation_of_his_letter_of_marque():
    """[blackbeard §R4.5] (#10) Tortuga is a Pirate Port; a Spanish LoM protects him at
    Santo Domingo."""
    for port, marque in ((TORTUGA, None), (SANTO_DOMINGO, "spanish")):
        state, seat, vane = position(port=port)
        vane.ship.revelry, vane.ship.letter_of_marque = VOLUNTARY, marque
        holding(state, "informer")
        announce(state, seat, "recover")
        assert keys(state) == ["pass"]


# ---------------------------------------------------------------- KC Surprise (#11), the chain


def test_kc_surprise_then_its_reaction_then_the_evasion_and_its_roll_point():
    """[blackbeard §R4.5, §R4.3] (#11, W14) At T-ANN of a Loot order[1] plays KC
    Surprise: a KC drawn blind into the Eastern Caribbean, his. Polled again from him, he
    Reacts (+1, no -1); Vane evades, his roll point offers a Cunning re-roll; he escapes,
    the Loot is lost and T-END opens (order[1], his AP Action used, is not polled)."""
    state, seat, vane = looting("kc_surprise", cunning=True)
    table = state.table
    play(state, "kc_surprise")
    (kc,) = table.kcs.values()
    assert (kc.owner, kc.area) == (table.order[1], "EC") and len(table.kc_pool) == 7
    assert polled(state) == (table.order[1], "T-ANN", ["pass", "react"])
    (reacted,) = events(state, "react", "kc_reacted")
    assert reacted["modifier"] == 1
    arrange.rig(state, 1, 5)
    answer(state, "evade")
    assert request(state).kind == "cunning" and request(state).seat == seat
    assert keys(state) == ["accept", "reroll"]
    happened = answer(state, "accept")
    while request(state).kind == "skull_and_crossbones":
        happened += answer(state, "accept")
    (evasion,) = [e.data for e in happened if e.kind == "evasion"]
    assert evasion["score"] == 5 + 3 and evasion["escaped"]
    assert evasion["against"] == 1 + DATA.kcs[kc.id].speed + 1
    assert "M23" in table.merchant_pool and vane.area == "EC"
    assert polled(state) == (table.order[2], "T-END", ["pass"])


def test_kc_surprise_needs_the_pirate_at_sea_and_no_kc_of_ones_own():
    """[blackbeard §R4.5] (#11) Not for a pirate In Port; not for a player with a KC."""
    state, seat, vane = position(port=SANTO_DOMINGO)
    vane.ship.revelry = VOLUNTARY
    holding(state, "kc_surprise")
    announce(state, seat, "recover")
    assert keys(state) == ["pass"]
    state, seat, _vane = position()
    holding(state, "kc_surprise")
    arrange.kc(state, state.table.order[1], "K1", "NA")
    announce(state, seat, "move", "move:WC")
    assert f"card:{card('kc_surprise')}" not in keys(state)


# ---------------------------------------------------------------- Pirate Converts (#16)


def test_pirate_converts_brings_the_ex_pirate_who_reacts_without_the_surprise_bonus():
    """[blackbeard §R4.5, §10.15] (#16) KX (Speed 4, Combat 10) into his sea area; its
    Reaction there has no +1 and no -1. Once KX is killed the card is not offered."""
    state, _seat, _vane = looting("pirate_converts")
    play(state, "pirate_converts")
    assert state.table.kcs["KX"].owner == state.table.order[1] and len(state.table.kc_pool) == 8
    (reacted,) = events(state, "react", "kc_reacted")
    assert reacted["modifier"] == 0
    state, seat, _vane = position()
    holding(state, "pirate_converts")
    state.table.kcs_killed.append("KX")
    announce(state, seat, "move", "move:WC")
    assert keys(state) == ["pass"]


# ---------------------------------------------------------------- Merchant Fights Back (#13)


def test_merchant_fights_back_and_wins_a_tie():
    """[blackbeard §R4.5] (#13) 6 + 3 + 5 = 14 against Vane 4 + 6 + 4 = 14: 1 Combat hit,
    the merchant escapes to the pool, the Loot is lost; no NP nor Loyalty."""
    state, _seat, vane = looting("merchant_fights_back")
    arrange.rig(state, 6, 4)
    (fought,) = [e.data for e in play(state, "merchant_fights_back") if e.kind == "merchant_fought"]
    assert (fought["score"], fought["against"], fought["pirate_won"]) == (14, 14, False)
    assert vane.ship.combat == 5 and vane.notoriety == 0 and vane.ship.loyalty == 7
    assert "M23" in state.table.merchant_pool and point(state) == "T-END"


def test_merchant_fights_back_and_loses_the_loot_goes_ahead():
    """[blackbeard §R4.5] (#13) 1 + 8 = 9 against 1 + 10 = 11: the Loot goes ahead."""
    state, _seat, vane = looting("merchant_fights_back")
    arrange.rig(state, 1, 1)
    play(state, "merchant_fights_back")
    assert vane.ship.combat == 6
    pass_all(state)
    assert request(state).kind == "loot_keep"


def test_merchant_fights_back_only_at_t_ann_of_a_loot():
    """[blackbeard §R4.5, §R4.3] (#13) Not for a Move; after a Loot's T-ANN nothing
    until its T-END."""
    state, seat, _vane = position()
    holding(state, "merchant_fights_back")
    announce(state, seat, "move", "move:WC")
    assert keys(state) == ["pass"]


# ---------------------------------------------------------------- Mutiny Conspiracy (#14)


def test_mutiny_conspiracy_averted_the_action_goes_on():
    """[blackbeard §R4.5, §14.12] (#14) 2d6 = 12 > Loyalty 7: a mutiny; 1d6 = 2 = Leadership:
    averted, Loyalty -1; the Move goes on."""
    state, seat, vane = position()
    holding(state, "mutiny_conspiracy")
    announce(state, seat, "move", "move:WC")
    arrange.rig(state, 6, 6, 2)
    (rolled,) = [e.data for e in play(state, "mutiny_conspiracy") if e.kind == "conspiracy_rolled"]
    assert rolled == {"pirate": "VA", "roll": 12, "loyalty": 7, "mutiny": True}
    assert vane.ship.loyalty == 6
    pass_all(state)
    assert vane.area == "WC"


def test_mutiny_conspiracy_on_allies_dissolves_them_and_a_new_captain_ends_the_action():
    """[blackbeard §R4.5, §11.16, §R4.3] (#14) Vane and Low allied At Sea: one roll each;
    Vane's 12 > 7 mutinies, Low's 2 does not; the alliance ends. Vane's crew wins (6 >
    Leadership 2): Kennedy takes the ship (Loyalty 6), Vane is dead (his owner scores
    his NP), and the Move ends with no T-END; Low stays where he was."""
    state, seat, vane = position()
    table = state.table
    low = arrange.pirate(state, seat, "LW", "EC")
    vane.notoriety = 5
    table.ally(vane, low)
    arrange.pirate_hand(state, seat, ["EN", "KE"])
    holding(state, "mutiny_conspiracy")
    announce(state, seat, "move", "move:WC")
    arrange.rig(state, 6, 6, 1, 1, 6)
    rolled = [e.data for e in play(state, "mutiny_conspiracy") if e.kind == "conspiracy_rolled"]
    assert [(r["pirate"], r["mutiny"]) for r in rolled] == [("VA", True), ("LW", False)]
    assert low.ally is None
    assert request(state).kind == "new_captain" and request(state).seat == seat
    answer(state, "pirate:KE")
    assert "VA" not in table.pirates and table.pirates["KE"].ship.loyalty == 6
    assert table.seats[seat].vp == 5
    assert request(state).kind == "choose_card"
    assert low.area == "EC" and table.pirates["KE"].area == "EC"


# ---------------------------------------------------------------- Piratical Ambition (#17)


def test_piratical_ambition_challenger_wins_takes_the_ship():
    """[blackbeard §R4.5, §15.11, §15.12] (#17) England (Duel 2) challenges Vane (Duel 3):
    12 against 3. Vane is dead (his owner scores his NP 4); England commands the Schooner
    for order[1], NP 3 + 2 = 5, Loyalty 6 + 1 = 7; the Action ends with no T-END."""
    state, seat, vane = position()
    table = state.table
    vane.notoriety, vane.ship.loyalty = 4, 3
    vane.ship.holds = [300, 0, 0]
    arrange.pirate_hand(state, table.order[1], ["EN"])
    holding(state, "piratical_ambition")
    announce(state, seat, "move", "move:WC")
    arrange.rig(state, 1, 1, 1, 6, 6)
    play(state, "piratical_ambition")  # England, his one Pirate card, is named at once
    pass_all(state)
    england = table.pirates["EN"]
    assert "VA" not in table.pirates and table.seats[seat].vp == 4
    assert england.owner == table.order[1] and england.notoriety == 5
    assert england.ship.loyalty == 7 and england.ship.holds == [300, 0, 0]
    assert england.area == "EC" and request(state).kind == "choose_card"


def test_piratical_ambition_defender_wins_the_action_goes_on():
    """[blackbeard §R4.5] (#17) 18 against 2: England is dead (nobody scores); Vane gains NP
    5 and Loyalty +1, and his Move goes on."""
    state, seat, vane = position()
    table = state.table
    arrange.pirate_hand(state, table.order[1], ["EN"])
    holding(state, "piratical_ambition")
    announce(state, seat, "move", "move:WC")
    arrange.rig(state, 6, 6, 6, 1, 1)
    play(state, "piratical_ambition")
    assert pass_all(state) == [(table.order[2], "T-ANN"), (table.order[2], "T-END")]
    assert "EN" in table.dead and "EN" not in table.pirates
    assert vane.notoriety == 5 and vane.ship.loyalty == 8 and vane.area == "WC"
    assert [s.vp for s in table.seats] == [0, 0, 0]


# ---------------------------------------------------------------- Scurvy Outbreak (#18)


def test_scurvy_outbreak_loyalty_down_now_never_in_port():
    """[blackbeard §R4.5] (#18) A Scurvy marker and Loyalty -1 At Sea; not In Port; not
    twice."""
    state, seat, vane = position()
    holding(state, "scurvy_outbreak")
    announce(state, seat, "move", "move:WC")
    play(state, "scurvy_outbreak")
    assert vane.ship.scurvy and vane.ship.loyalty == 6
    state, seat, vane = position(port=SANTO_DOMINGO)
    vane.ship.revelry = VOLUNTARY
    holding(state, "scurvy_outbreak")
    announce(state, seat, "recover")
    assert keys(state) == ["pass"]


# ---------------------------------------------------------------- Storm At Sea (#22)


def test_storm_at_sea_sinks_him_on_7_in_a_transit_box():
    """[blackbeard §R4.5, §R18.12] (#22, case B) In Transit Box 1: 6 + 1 = 7, sunk. The owner
    scores his NP, the AP player nothing; no T-END."""
    state, seat, vane = position(area="T1")
    table = state.table
    vane.notoriety = 6
    holding(state, "storm_at_sea")
    announce(state, seat, "move", "move:GC")  # his one legal Action, chosen at once
    arrange.rig(state, 6)
    (storm,) = [e.data for e in play(state, "storm_at_sea") if e.kind == "storm"]
    assert storm["roll"] == 7 and storm["sinks"]
    assert "VA" in table.dead and table.seats[seat].vp == 6
    assert table.seats[table.order[1]].vp == 0 and request(state).kind == "choose_card"


def test_storm_at_sea_at_a_loot_speed_hits_the_located_merchants_escape_the_loot_lost():
    """[blackbeard §R4.5] (#22) 1: one Speed hit; both merchants he located escape; at T-ANN
    of a Loot it is lost."""
    state, seat, vane = position()
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    arrange.merchant(state, SAN_JUAN, "M24", face_up=True, located_by="VA")
    holding(state, "storm_at_sea")
    announce(state, seat, "loot", f"port:{SANTO_DOMINGO}")
    arrange.rig(state, 1)
    play(state, "storm_at_sea")
    assert vane.ship.speed == 2
    assert SANTO_DOMINGO not in state.table.merchants and SAN_JUAN not in state.table.merchants
    assert point(state) == "T-END"


def test_one_card_of_each_title_per_player_turn():
    """[blackbeard §R4.3, §4.65] (L5) Order[1] plays Storm At Sea in the first Move:
    order[2]'s Storm At Sea is not offered in it, nor in the second Move."""
    state, seat, _vane = position()
    holding(state, "storm_at_sea", 1)
    holding(state, "storm_at_sea", 2)
    announce(state, seat, "move", "move:WC", count=2)
    arrange.rig(state, 1)
    play(state, "storm_at_sea")
    assert polled(state) == (state.table.order[2], "T-ANN", ["pass"])
    pass_all(state)
    then(state, "pirate:VA", "action:move", "move:EC")
    assert polled(state) == (state.table.order[2], "T-ANN", ["pass"])


# ---------------------------------------------------------------- Warship Sighting (#23)


def test_warship_sighting_at_t_ann_of_a_loot_attacks_at_once():
    """[blackbeard §R4.5, §6.42, §R18.12] (#23, case E) A warship drawn blind into his
    area; order[1] attacks; Vane fights and loses 6 + Combat + 2 against 1 + 6 + 4: hits = the
    difference, order[1] scores 1 VP per hit."""
    state, _seat, vane = looting("warship_sighting")
    table = state.table
    play(state, "warship_sighting")
    warship = table.patrols["EC"]
    assert request(state).kind == "sighting_attack"
    answer(state, "attack")
    arrange.rig(state, 6, 1)
    answer(state, "fight")
    hits = 6 + DATA.warships[warship].combat + 2 - 11
    assert table.seats[table.order[1]].vp == hits
    assert vane.ship.loyalty == 6 and point(state) == "T-END"


def test_warship_sighting_beside_a_patrol_keeps_one():
    """[blackbeard §R4.5, §R4.3] (#23, W12) W01 patrols the Eastern Caribbean; the sighted
    warship is left on Patrol: order[1] keeps the new one, W01 goes back to the pool."""
    state, seat, _vane = position()
    table = state.table
    arrange.merchant(state, SANTO_DOMINGO, "M23")
    arrange.patrol(state, "EC", "W01")
    holding(state, "warship_sighting")
    announce(state, seat, "locate", f"port:{SANTO_DOMINGO}")
    answer(state, "pass")
    arrange.rig(state, 1)
    answer(state, "pass")
    play(state, "warship_sighting")
    new = table.ap.sighted
    answer(state, "patrol")
    assert request(state).kind == "sighting_keep" and keys(state) == ["keep_old", "keep_new"]
    answer(state, "keep_new")
    assert table.patrols == {"EC": new} and "W01" in table.warship_pool
    assert len(table.warship_pool) == 14


# ---------------------------------------------------------------- Wear and Tear (#24)


def test_wear_and_tear_below_speed_0_makes_the_move_its_first_half():
    """[blackbeard §R4.5, §7.12] (#24) Speed 0 -> -1 (Loyalty -1): the Move becomes the
    first of two; Vane stays."""
    state, seat, vane = position()
    vane.ship.speed = 0
    holding(state, "wear_and_tear")
    announce(state, seat, "move", "move:WC", count=2)
    play(state, "wear_and_tear")
    assert vane.ship.speed == -1 and vane.ship.loyalty == 6
    pass_all(state)
    assert vane.area == "EC" and vane.half_move == "move:WC"
    then(state, "pirate:VA", "action:move", "move:WC")
    pass_all(state)
    assert vane.area == "WC" and vane.half_move is None


def test_wear_and_tear_in_a_transit_box_is_2_hits():
    """[blackbeard §R4.5] (#24) In a Transit Box: 2 Speed hits; the Move goes on."""
    state, seat, vane = position(area="T1")
    holding(state, "wear_and_tear")
    announce(state, seat, "move", "move:GC")  # his one legal Action, chosen at once
    play(state, "wear_and_tear")
    assert vane.ship.speed == 1
    pass_all(state)
    assert vane.area == "GC"


def test_piratical_ambition_needs_a_free_slot_under_the_pirate_limit():
    """[blackbeard §R4.5, §5.14] (#17) Order[1] with 3 pirates on the map (the 3-player
    limit) may not play it; with the option off he may."""
    for needs_slot, offered in ((True, False), (False, True)):
        state, seat, _vane = position(piratical_ambition_requires_free_slot=needs_slot)
        for pid in ("BO", "LW", "TE"):
            arrange.pirate(state, state.table.order[1], pid, "NA")
        arrange.pirate_hand(state, state.table.order[1], ["EN"])
        holding(state, "piratical_ambition")
        announce(state, seat, "move", "move:WC")
        assert (f"card:{card('piratical_ambition')}" in keys(state)) is offered
