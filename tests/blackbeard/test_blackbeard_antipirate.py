"""The anti-pirate side [blackbeard §10.0, §6.4, §R4.3]: the windows of a Pirate Action
and who is polled in them, the limits L1-L7 in the options offered, warships, King's
Commissioners and the VP they earn, on concrete positions with set dice.

Dice: an anti-pirate roll is thrown before the pirate's roll it is compared with (evasion,
battle, Oust, a KC's Pirate-Port attack), so `arrange.rig(state, foe, pirate)`.
"""

from __future__ import annotations

from bb_helpers import answer, keys, request

from admiralty.games.blackbeard import arrange
from admiralty.games.blackbeard.pieces import VOLUNTARY
from admiralty.games.blackbeard.table import DATA

BRIDGETOWN, SANTO_DOMINGO, TORTUGA, NEW_PROVIDENCE, SAN_JUAN = 16, 32, 35, 44, 52
POINTS = {
    "The Pirate Action is announced: an anti-pirate act?": "T-ANN",
    "The pirate enters a sea area or a port: a KC Reaction?": "T-ENTER",
    "A roll was made: an anti-pirate act?": "T-MID",
    "The Pirate Action is over: an anti-pirate act?": "T-END",
}
ROLL_POINTS = ("cunning", "skull_and_crossbones")


def card(key):
    return DATA.card(key).number


def position(players=3, area="EC", port=None, ship="schooner", turn_of=0, **options):
    """Seat order[turn_of] has Vane (a Schooner, Skill 4) on the map, deployed in an earlier
    turn (so KCs may React) with his Cunning spent (no roll points); every hand is
    empty."""
    state = arrange.ready(players, 1, **options)
    arrange.remove_pirates(state)
    for seat in range(players):
        arrange.hand(state, seat, [])
    seat = state.table.order[turn_of]
    vane = arrange.pirate(state, seat, "VA", area, port=port, ship=ship)
    vane.deployed_turn = 0
    vane.cunning_used = DATA.pirates["VA"].cunning
    return state, seat, vane


def announce(state, seat, action, target=None, pirate="VA", count=1):
    """`seat` gets `count` Actions and announces `action` with `pirate`: the T-ANN window
    (or what follows it) is open."""
    arrange.actions(state, seat, count)
    then(state, f"pirate:{pirate}", f"action:{action}", *([target] if target else []))


def then(state, *chosen):
    """Answer these keys in turn, skipping one the engine applied alone (a single
    option)."""
    for key in chosen:
        if key in keys(state):
            answer(state, key)


def point(state):
    return POINTS[request(state).prompt]


def polled(state):
    """Who is asked now: (seat, point, options)."""
    return request(state).seat, point(state), keys(state)


def pass_all(state):
    """PASS every anti-pirate poll and accept every roll point until another request; the
    polls as (seat, point)."""
    seen = []
    while state.pending() and request(state).kind in ("anti_pirate", *ROLL_POINTS):
        if request(state).kind == "anti_pirate":
            seen.append((request(state).seat, point(state)))
            answer(state, "pass")
        else:
            answer(state, "accept")
    return seen


def events(state, key, kind):
    """Answer `key` and return the events of kind `kind` it caused."""
    return [e.data for e in answer(state, key) if e.kind == kind]


# ---------------------------------------------------------------- W1 polling (26.2)


def test_t_ann_polls_from_the_player_after_the_pirate_player_pass_first_even_alone():
    """[blackbeard §R4.3, §4.63] Four players, the Pirate Player order[1]: order[2],
    order[3], order[0] are polled in turn, each offered PASS alone (option 0), then the
    same at T-END."""
    state, pirate_player, vane = position(players=4, turn_of=1)
    table = state.table
    announce(state, pirate_player, "move", "move:WC")
    assert keys(state) == ["pass"]
    after = table.order[2], table.order[3], table.order[0]
    assert pass_all(state) == [(s, "T-ANN") for s in after] + [(s, "T-END") for s in after]
    assert vane.area == "WC"


def test_an_act_re_polls_from_the_first_seat_and_a_seat_that_acted_is_skipped():
    """[blackbeard §R4.3, §4.61] Seat order[1] passes, order[2] plays Scurvy
    Outbreak; the window polls again from order[1] (who may now act), and order[2], his AP
    Action used and no KC, is not polled again this turn."""
    state, seat, vane = position()
    first, second = state.table.order[1], state.table.order[2]
    arrange.hand(state, second, [card("scurvy_outbreak")])
    announce(state, seat, "move", "move:WC")
    assert polled(state) == (first, "T-ANN", ["pass"])
    answer(state, "pass")
    assert polled(state) == (second, "T-ANN", ["pass", f"card:{card('scurvy_outbreak')}"])
    answer(state, f"card:{card('scurvy_outbreak')}")
    assert vane.ship.scurvy and vane.ship.loyalty == 6
    assert pass_all(state) == [(first, "T-ANN"), (first, "T-END")]


def test_a_seat_that_used_its_ap_action_is_polled_again_only_for_a_reaction():
    """[blackbeard §R4.3, §10.31] Order[1] plays Scurvy Outbreak at T-ANN of a Move; his
    KC next door in the Western Caribbean can still React, so he is polled again, with
    PASS and React only. At T-END (no Reaction there) he is not polled."""
    state, seat, _vane = position()
    first, second = state.table.order[1], state.table.order[2]
    arrange.hand(state, first, [card("scurvy_outbreak")])
    arrange.kc(state, first, "K1", "WC")
    announce(state, seat, "move", f"port:{SANTO_DOMINGO}")
    assert polled(state)[2] == [
        "pass",
        "react",
        "kc_move:SA",
        "kc_move:EC",
        "kc_move:CM",
        "kc_move:SM",
        f"card:{card('scurvy_outbreak')}",
    ]
    answer(state, f"card:{card('scurvy_outbreak')}")
    assert polled(state) == (first, "T-ANN", ["pass", "react"])
    seen = pass_all(state)
    # T-ENTER: the port's sea area (EC) is next to the KC: he alone is asked
    assert seen == [(first, "T-ANN"), (second, "T-ANN"), (first, "T-ENTER"), (second, "T-END")]


def _requests_when_all_pass(state):
    seen = []
    while state.pending() and request(state).kind in ("anti_pirate", *ROLL_POINTS):
        open_request = request(state)
        seen.append(
            (
                open_request.seat,
                open_request.kind,
                open_request.window,
                point(state) if open_request.kind == "anti_pirate" else None,
            )
        )
        answer(state, "pass" if open_request.kind == "anti_pirate" else "accept")
    return seen


def test_a_window_opens_the_same_whether_or_not_a_seat_holds_a_playable_card():
    """[blackbeard §R4.3] Twin positions differing only in order[2]'s hand (Storm at
    Sea, playable at T-ANN and T-END, or nothing): the same (seat, kind, window, point)
    requests, and order[1]'s options are the same."""
    sequences, options = [], []
    for cards in ([card("storm_at_sea")], []):
        state, seat, _vane = position()
        arrange.hand(state, state.table.order[2], cards)
        announce(state, seat, "move", "move:WC")
        options.append(keys(state))
        sequences.append(_requests_when_all_pass(state))
    assert sequences[0] == sequences[1]
    assert options[0] == options[1] == ["pass"]
    assert [s[0] for s in sequences[0]] == [1, 2, 1, 2]


# ---------------------------------------------------------------- the windows (26.4)


def test_t_enter_polls_only_a_kc_in_range_of_the_destination():
    """[blackbeard §10.32, §R4.3] (W2) Order[2]'s KC in the South Atlantic is not next to
    the Eastern Caribbean (no Reaction at T-ANN) but is next to the Western Caribbean: the
    step there opens T-ENTER for him alone, PASS or React, no other act (L4)."""
    state, seat, vane = position()
    second = state.table.order[2]
    arrange.kc(state, second, "K1", "SA")
    announce(state, seat, "move", "move:WC")
    assert "react" not in polled(state)[2]
    answer(state, "pass")
    # his KC acts: a Move, or the attack on empty New Providence there (L4 allows one)
    assert polled(state) == (
        second,
        "T-ANN",
        ["pass", "kc_move:CA", "kc_move:WC", f"kc_port:{NEW_PROVIDENCE}"],
    )
    answer(state, "pass")
    assert polled(state) == (second, "T-ENTER", ["pass", "react"])
    assert vane.area == "EC"  # before the counter is placed
    answer(state, "pass")
    assert vane.area == "WC" and point(state) == "T-END"


def test_no_t_enter_into_a_transit_box_and_no_reaction_to_a_pirate_in_one():
    """[blackbeard §10.31, §10.32] Order[1]'s KC in South Main may React at T-ANN of a
    Move from there; order[2]'s in the Gulf of Guinea may not (a Transit Box is adjacent to
    nothing). The step into Transit Box 1 has no T-ENTER; the next Move, from the box into
    the Gulf of Guinea, has neither a Reaction at T-ANN nor a T-ENTER."""
    state, seat, vane = position(area="SM")
    first, second = state.table.order[1], state.table.order[2]
    arrange.kc(state, first, "K1", "SM")
    arrange.kc(state, second, "K2", "GC")
    announce(state, seat, "move", "transit:T1", count=2)
    assert polled(state)[:2] == (first, "T-ANN") and "react" in keys(state)
    answer(state, "pass")
    assert polled(state)[:2] == (second, "T-ANN") and "react" not in keys(state)
    assert pass_all(state) == [(second, "T-ANN"), (first, "T-END"), (second, "T-END")]
    assert vane.area == "T1"
    then(state, "pirate:VA", "action:move", "move:GC")
    seen = []
    while request(state).kind == "anti_pirate":
        assert "react" not in keys(state)
        seen.append(point(state))
        answer(state, "pass")
    assert seen == ["T-ANN", "T-ANN", "T-END", "T-END"] and vane.area == "GC"


def test_w3_after_a_locate_roll_offers_the_warship_and_reaction_not_at_its_t_ann():
    """[blackbeard §R4.3] (L3, L6, W3) A warship patrols the Eastern Caribbean and a
    KC is next door: at T-ANN of a Locate neither the warship nor a Reaction is offered;
    after the roll (W3) both are, with the KC deployment (NP 6)."""
    state, seat, vane = position()
    table = state.table
    vane.notoriety = 6
    arrange.merchant(state, SANTO_DOMINGO, "M23")
    arrange.patrol(state, "EC", "W01")
    arrange.kc(state, table.order[1], "K1", "WC")
    announce(state, seat, "locate", f"port:{SANTO_DOMINGO}")
    first = keys(state)
    assert "react" not in first and "patrol" not in first
    answer(state, "pass")
    assert keys(state) == ["pass", "kc_deploy"]
    arrange.rig(state, 1)
    answer(state, "pass")
    assert polled(state) == (
        table.order[1],
        "T-MID",
        ["pass", "react", "patrol", "kc_move:SA", "kc_move:EC", "kc_move:CM", "kc_move:SM"],
    )
    assert not table.merchants[SANTO_DOMINGO].face_up  # 1 + 4 < 7
    answer(state, "pass")
    assert polled(state) == (table.order[2], "T-MID", ["pass", "kc_deploy", "patrol"])


def test_w4_after_a_failed_port_attack_but_no_t_mid_after_a_success():
    """[blackbeard §R4.3, §6.42] (W4) A failed Attack on San Juan: the pirate At Sea
    is polled again at T-MID (patrol, Warship Sighting). A successful one puts him In Port:
    no T-MID, and at T-END no warship act."""
    sighting = card("warship_sighting")
    for roll, mid in ((1, True), (6, False)):
        state, seat, vane = position()
        arrange.hand(state, state.table.order[1], [sighting])
        arrange.patrol(state, "EC", "W01")
        announce(state, seat, "attack", f"port:{SAN_JUAN}")
        assert keys(state) == ["pass", "patrol", f"card:{sighting}"]
        answer(state, "pass")
        arrange.rig(state, roll, 6, 6)  # the attack, then San Juan's 1d6 (+ Defense 7)
        answer(state, "pass")
        if mid:
            assert polled(state) == (
                state.table.order[1],
                "T-MID",
                ["pass", "patrol", f"card:{sighting}"],
            )
            pass_all(state)
            continue
        while request(state).kind != "anti_pirate":
            answer(state, keys(state)[-1])
        assert vane.port == SAN_JUAN and polled(state) == (state.table.order[1], "T-END", ["pass"])


def test_t_end_offers_no_warship_and_no_reaction():
    """[blackbeard §R4.3] (W8) At T-END of a Loot: a KC deployment and "any time" cards,
    never the patrolling warship nor a Reaction."""
    state, seat, vane = position()
    table = state.table
    vane.notoriety = 6
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    arrange.patrol(state, "EC", "W01")
    arrange.kc(state, table.order[2], "K1", "EC")
    arrange.hand(state, table.order[1], [card("storm_at_sea")])
    announce(state, seat, "loot")
    assert polled(state)[2] == ["pass", "kc_deploy", "patrol", f"card:{card('storm_at_sea')}"]
    pass_all(state)
    arrange.rig(state, 3)
    answer(state, "decline")
    assert polled(state) == (
        table.order[1],
        "T-END",
        ["pass", "kc_deploy", f"card:{card('storm_at_sea')}"],
    )
    answer(state, "pass")
    assert polled(state)[:2] == (table.order[2], "T-END") and "react" not in keys(state)


def test_no_anti_pirate_window_during_action_k():
    """[blackbeard §R4.3, §4.64] (L7) Action K (draw or deploy) has no window."""
    state, seat, _vane = position()
    arrange.kc(state, state.table.order[1], "K1", "EC")
    arrange.actions(state, seat, 1)
    answer(state, "k")
    assert request(state).kind == "draw_or_deploy"


def test_no_reaction_against_a_pirate_deployed_this_turn():
    """[blackbeard §R4.3, §10.32] (L6) A pirate deployed in this Player Turn: no Reaction,
    even from a KC in his area."""
    state, seat, vane = position()
    vane.deployed_turn = state.table.turn.number
    arrange.kc(state, state.table.order[1], "K1", "EC")
    announce(state, seat, "move", "move:WC")
    assert "react" not in keys(state)


# ---------------------------------------------------------------- limits (26.3)


def test_l1_one_ap_action_per_player_per_player_turn():
    """[blackbeard §R4.3] (L1) Order[1] plays Scurvy Outbreak in the first Move; in the
    second Move he is polled no more (no KC), order[2] still is."""
    state, seat, _vane = position()
    table = state.table
    arrange.hand(state, table.order[1], [card("scurvy_outbreak"), card("storm_at_sea")])
    announce(state, seat, "move", "move:WC", count=2)
    answer(state, f"card:{card('scurvy_outbreak')}")
    pass_all(state)
    answer(state, "pirate:VA")
    answer(state, "action:move")
    answer(state, "move:EC")
    assert pass_all(state) == [(table.order[2], "T-ANN"), (table.order[2], "T-END")]


def test_l2_kc_deployment_needs_np_4_at_sea_and_no_kc_of_ones_own():
    """[blackbeard §R4.3, §10.12, §10.13] (L2) Offered at NP 4, not at NP 3; not In Port;
    not to a player who has a KC."""
    state, seat, vane = position()
    vane.notoriety = 3
    arrange.kc(state, state.table.order[2], "K1", "NA")
    announce(state, seat, "move", "move:WC")
    assert keys(state) == ["pass"]
    state, seat, vane = position()
    vane.notoriety = 4
    arrange.kc(state, state.table.order[2], "K1", "NA")
    announce(state, seat, "move", "move:WC")
    assert keys(state) == ["pass", "kc_deploy"]
    answer(state, "pass")
    assert "kc_deploy" not in keys(state)  # order[2] controls a KC
    state, seat, vane = position(port=SANTO_DOMINGO)
    vane.notoriety = 12
    vane.ship.revelry = VOLUNTARY
    announce(state, seat, "recover")
    assert keys(state) == ["pass"]


def test_l2_deployment_3d6_under_np_one_attempt_per_pirate_action_then_the_kc_may_react():
    """[blackbeard §10.12, §4.62, §R4.3] (L2, L6) Avery's example: NP 12, 3 + 5 + 2 = 10
    succeeds; the KC is drawn into the pirate's sea area under order[1]. Re-polled from
    order[1], his new KC may React at this T-ANN of a Loot; order[2] may not try again."""
    state, seat, vane = position()
    table = state.table
    vane.notoriety = 12
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    announce(state, seat, "loot")
    arrange.rig(state, 3, 5, 2)
    (rolled,) = events(state, "kc_deploy", "kc_deploy_rolled")
    assert rolled["roll"] == 10 and rolled["success"]
    (kc,) = table.kcs.values()
    assert (kc.owner, kc.area) == (table.order[1], "EC") and kc.id not in table.kc_pool
    assert len(table.kc_pool) == 7
    assert polled(state) == (table.order[1], "T-ANN", ["pass", "react"])
    answer(state, "pass")
    assert polled(state) == (table.order[2], "T-ANN", ["pass"])


def test_l2_a_roll_equal_to_np_fails():
    """[blackbeard §10.12] 3d6 of 12 against NP 12 fails: no KC."""
    state, seat, vane = position()
    vane.notoriety = 12
    announce(state, seat, "move", "move:WC")
    arrange.rig(state, 6, 4, 2)
    (rolled,) = events(state, "kc_deploy", "kc_deploy_rolled")
    assert not rolled["success"] and not state.table.kcs and len(state.table.kc_pool) == 8


def test_l3_one_warship_act_per_pirate_action_and_one_sighting_per_turn():
    """[blackbeard §R4.3, §6.42, §6.44] (L3) No Warship Sighting at T-ANN of a Locate. After
    the roll order[1] plays it and leaves the warship on Patrol: order[2] may neither use
    it (one warship act per Pirate Action) nor play his own copy. In the next Locate he may
    use it (type B), but no second Sighting this Player Turn."""
    sighting = card("warship_sighting")
    state, seat, _vane = position()
    table = state.table
    first, second = table.order[1], table.order[2]
    arrange.merchant(state, SANTO_DOMINGO, "M23")
    arrange.hand(state, first, [sighting])
    arrange.hand(state, second, [sighting])
    announce(state, seat, "locate", f"port:{SANTO_DOMINGO}", count=2)
    assert keys(state) == ["pass"]
    answer(state, "pass")
    arrange.rig(state, 1)  # 1 + 4 < 7: not located
    answer(state, "pass")
    assert polled(state) == (first, "T-MID", ["pass", f"card:{sighting}"])
    answer(state, f"card:{sighting}")
    assert request(state).kind == "sighting_attack" and request(state).seat == first
    assert keys(state) == ["attack", "patrol"]
    answer(state, "patrol")
    warship = table.patrols["EC"]
    assert warship not in table.warship_pool and len(table.warship_pool) == 14
    assert polled(state) == (second, "T-MID", ["pass"])
    pass_all(state)
    then(state, "pirate:VA", "action:locate", f"port:{SANTO_DOMINGO}")
    arrange.rig(state, 1)
    assert polled(state) == (second, "T-ANN", ["pass"])
    answer(state, "pass")
    assert polled(state) == (second, "T-MID", ["pass", "patrol"])


def test_l4_one_kc_ap_action_per_player_turn_and_none_at_t_enter():
    """[blackbeard §R4.3, §10.23] (L4) Order[1] moves his KC at T-ANN; order[2]'s KC is
    then offered no KC act, only the Reaction, in this and the next Action."""
    state, seat, _vane = position()
    table = state.table
    arrange.kc(state, table.order[1], "K1", "NA")
    arrange.kc(state, table.order[2], "K2", "SM")
    announce(state, seat, "move", "move:WC", count=2)
    assert keys(state) == ["pass", "kc_move:CA"]
    events(state, "kc_move:CA", "kc_moved")
    assert table.kcs["K1"].area == "CA"
    assert polled(state) == (table.order[2], "T-ANN", ["pass", "react"])


def test_l6_one_reaction_per_pirate_action_the_first_in_player_order_gets_it():
    """[blackbeard §10.31, §R4.3] (L6) Two KCs next to the pirate: order[1] is asked first;
    his Reaction fails to intercept (the pirate escapes), and order[2]'s KC may not React
    again in that Move, though he keeps his AP Action."""
    state, seat, vane = position()
    table = state.table
    arrange.kc(state, table.order[1], "K1", "WC")
    arrange.kc(state, table.order[2], "K2", "SM")
    announce(state, seat, "move", "move:WC")
    answer(state, "react")
    assert table.kcs["K1"].area == "EC"
    assert request(state).kind == "kc_attack" and keys(state) == ["evade", "fight"]
    arrange.rig(state, 1, 6)
    (evasion,) = events(state, "evade", "evasion")
    assert evasion["escaped"] and evasion["against"] == 1 + 3 - 1
    # a Reaction is no AP Action: order[1] keeps his, and K1 is now next to Tortuga
    assert polled(state) == (
        table.order[1],
        "T-ANN",
        ["pass", "kc_move:WC", "kc_move:SM", f"kc_port:{TORTUGA}"],
    )
    answer(state, "pass")
    assert polled(state)[:2] == (table.order[2], "T-ANN") and "react" not in keys(state)
    answer(state, "pass")
    assert vane.area == "WC"  # no T-ENTER: the one Reaction was made


# ---------------------------------------------------------------- warships (6.45-6.47)


def looting(key=None, kc=None, patrol=None, cunning=False, **options):
    """Vane At Sea in the Eastern Caribbean announces a Loot of the Brig (Cargo Value 3)
    he located at Santo Domingo. Order[1] holds the AP card `key` and controls the KC
    `kc` = (id, sea area); `patrol` patrols the Eastern Caribbean; `cunning`: Vane has
    his Cunning."""
    state, seat, vane = position(**options)
    if cunning:
        vane.cunning_used = 0
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    if key is not None:
        arrange.hand(state, state.table.order[1], [card(key)])
    if kc is not None:
        arrange.kc(state, state.table.order[1], *kc)
    if patrol is not None:
        arrange.patrol(state, "EC", patrol)
    announce(state, seat, "loot")
    return state, seat, vane


def _loot(**options):
    return looting(patrol="W01", **options)


def test_warship_evaded_cancels_the_loot_the_merchant_escapes_and_t_end_opens():
    """[blackbeard §6.45, §R4.3] The patrol attacks; Vane evades, 2 + Speed 3 against
    1 + 4: he escapes, the Loot is lost, the merchant goes back to the pool, the warship
    stays on Patrol, and the window closes for T-END."""
    state, _seat, vane = _loot()
    table = state.table
    answer(state, "patrol")
    assert request(state).kind == "warship_attack" and request(state).seat == 0
    arrange.rig(state, 1, 2)
    (evasion,) = events(state, "evade", "evasion")
    assert evasion == {"pirate": "VA", "foe": "W01", "score": 5, "against": 5, "escaped": True}
    assert SANTO_DOMINGO not in table.merchants and "M23" in table.merchant_pool
    assert table.patrols == {"EC": "W01"} and vane.area == "EC"
    assert polled(state) == (table.order[2], "T-END", ["pass"])


def test_warship_beaten_np_then_one_combat_hit_to_the_pool_and_the_loot_goes_on():
    """[blackbeard §6.46, §6.47] Fight: W01 1 + 7 + 2 = 10 against Vane 2 + 6 + 4 = 12:
    NP + 7, 1 Combat hit, the warship back to the pool, nobody scores, the Loot goes on."""
    state, _seat, vane = _loot()
    table = state.table
    answer(state, "patrol")
    arrange.rig(state, 1, 2)
    (battle,) = events(state, "fight", "warship_battle")
    assert (battle["score"], battle["against"], battle["pirate_won"]) == (12, 10, True)
    assert vane.notoriety == 7 and vane.ship.combat == 5
    assert "EC" not in table.patrols and "W01" in table.warship_pool
    assert [s.vp for s in table.seats] == [0, 0, 0]
    pass_all(state)
    assert request(state).kind == "loot_keep"


def test_warship_wins_hits_the_difference_loyalty_down_action_lost_vp_per_hit():
    """[blackbeard §6.46, §R18.12] (case E) W01 6 + 7 + 2 = 15 against Vane 1 + 6 + 4 = 11: 4
    Combat hits, Loyalty -1, the Loot lost (merchant to the pool), the warship stays, and
    order[2], who used it, scores 4 VP."""
    state, _seat, vane = _loot()
    table = state.table
    answer(state, "pass")
    answer(state, "patrol")
    arrange.rig(state, 6, 1)
    answer(state, "fight")
    assert vane.ship.combat == 2 and vane.ship.loyalty == 6
    assert table.patrols == {"EC": "W01"} and "M23" in table.merchant_pool
    assert table.seats[table.order[2]].vp == 4
    assert point(state) == "T-END"


def test_warship_sinks_him_half_np_to_the_ap_player_np_to_the_owner():
    """[blackbeard §R18.12, §R4.3] (case B, case E) Vane (NP 9, Combat 2) loses 15 to 7: 8
    hits sink him. The AP player scores 8 + 4, the owner 9; no T-END for a removed
    pirate."""
    state, seat, vane = _loot()
    table = state.table
    vane.notoriety, vane.ship.combat = 9, 2
    answer(state, "patrol")
    arrange.rig(state, 6, 1)
    answer(state, "fight")
    assert "VA" not in table.pirates and "VA" in table.dead
    assert table.seats[table.order[1]].vp == 12 and table.seats[seat].vp == 9
    assert request(state).kind == "choose_card"


def test_ap_vp_awards_none_and_doubled():
    """[blackbeard §R18.12, §R8] (design option 7) The 4-hit warship win scores 0 or 8."""
    for awards, vp in (("none", 0), ("doubled", 8)):
        state, _seat, _vane = _loot(ap_vp_awards=awards)
        answer(state, "patrol")
        arrange.rig(state, 6, 1)
        answer(state, "fight")
        assert state.table.seats[state.table.order[1]].vp == vp


def test_option_2_4_off_takes_the_plus_2_from_the_warship():
    """[blackbeard §2.4] Without option 2.4: W01 3 + 7 = 10 against Vane 1 + 6 + 4 =
    11, the pirate wins; with it, 12 beats 11."""
    for plus2, won in ((False, True), (True, False)):
        state, _seat, _vane = _loot(option_2_4_plus2=plus2)
        answer(state, "patrol")
        arrange.rig(state, 3, 1)
        (battle,) = events(state, "fight", "warship_battle")
        assert battle["pirate_won"] is won


# ---------------------------------------------------------------- KCs (10.3, 10.4)


def test_kc_reacting_from_next_door_has_minus_1_and_an_escape_cancels_the_loot():
    """[blackbeard §10.33] Maynard (Speed 5) Reacts from the Western Caribbean: 3 + 5 - 1
    = 7 against Vane 4 + 3 = 7: he escapes, the Loot is lost, the merchant escapes."""
    state, _seat, _vane = looting(kc=("K4", "WC"))
    (reacted,) = events(state, "react", "kc_reacted")
    assert reacted["modifier"] == -1 and state.table.kcs["K4"].area == "EC"
    arrange.rig(state, 3, 4)
    (evasion,) = events(state, "evade", "evasion")
    assert (evasion["score"], evasion["against"], evasion["escaped"]) == (7, 7, True)
    assert "M23" in state.table.merchant_pool and point(state) == "T-END"


def test_kc_in_the_same_area_intercepts_and_without_a_letter_of_marque_he_must_fight():
    """[blackbeard §10.33, §10.34] No -1 in the same area: 3 + 5 = 8 > 7, intercepted; no
    LoM: the battle follows at once."""
    state, seat, vane = position()
    table = state.table
    vane.notoriety = 9
    arrange.kc(state, table.order[1], "K4", "EC")
    announce(state, seat, "move", "move:WC")
    (reacted,) = events(state, "react", "kc_reacted")
    assert reacted["modifier"] == 0
    arrange.rig(state, 3, 4, 6, 1)  # evasion, then the battle: 6 + 8 + 2 = 16 > 1 + 10
    answer(state, "evade")
    assert "VA" not in table.pirates
    # 10.36: the owner scores the NP, the controller half of it; no T-END
    assert table.seats[seat].vp == 9 and table.seats[table.order[1]].vp == 4
    assert request(state).kind == "choose_card"


def test_a_move_escapes_a_t_enter_reaction_and_the_step_is_completed():
    """[blackbeard §10.32, §10.33] The KC Reacts at T-ENTER into the Western
    Caribbean (-1, it moved); Vane escapes and still steps into it."""
    state, seat, vane = position()
    arrange.kc(state, state.table.order[1], "K1", "SA")
    announce(state, seat, "move", "move:WC")
    answer(state, "pass")
    answer(state, "pass")
    assert point(state) == "T-ENTER"
    (reacted,) = events(state, "react", "kc_reacted")
    assert (reacted["to"], reacted["modifier"]) == ("WC", -1)
    arrange.rig(state, 5, 4)  # 5 + 3 - 1 = 7 against 4 + 3 = 7
    answer(state, "evade")
    assert vane.area == "WC" and state.table.kcs["K1"].area == "WC"
    assert point(state) == "T-END"


def test_kc_beaten_is_killed_np_twice_its_combat_loyalty_up_controller_half_combat():
    """[blackbeard §10.35, §R18.12] (case D) Fight Maynard (Combat 8): 1 + 8 + 2 = 11 against
    Vane 2 + 6 + 4 = 12: Maynard is killed for good, Vane gains 16 NP and Loyalty +1, the
    controller scores 4; the Loot goes on."""
    state, _seat, vane = looting(kc=("K4", "EC"))
    table = state.table
    answer(state, "react")
    arrange.rig(state, 1, 2)
    answer(state, "fight")
    assert "K4" not in table.kcs and table.kcs_killed == ["K4"] and "K4" not in table.kc_pool
    assert vane.notoriety == 16 and vane.ship.loyalty == 8
    assert table.seats[table.order[1]].vp == 4
    pass_all(state)
    assert request(state).kind == "loot_keep"


def test_a_pirate_killed_mid_loot_has_no_t_end_and_his_target_merchant_goes_back():
    """[blackbeard §R4.3] Vane dies to a KC Reacting at T-ANN of a Loot: the Action ends,
    no T-END, the merchant he was looting goes back to the pool."""
    state, _seat, _vane = looting(kc=("K4", "EC"))
    table = state.table
    answer(state, "react")
    arrange.rig(state, 6, 1)
    answer(state, "fight")
    assert "VA" not in table.pirates and request(state).kind == "choose_card"
    assert SANTO_DOMINGO not in table.merchants and "M23" in table.merchant_pool


def test_surrender_with_a_letter_of_marque_retires_him_controller_half_np():
    """[blackbeard §10.34, §R18.12] (case A, case F) Intercepted with a LoM: fight or surrender;
    surrendering retires him (18.41 B: the owner scores his NP) and the KC's controller
    scores half his NP (11 -> 5)."""
    state, seat, vane = position()
    table = state.table
    vane.notoriety, vane.ship.letter_of_marque = 11, "english"
    arrange.kc(state, table.order[1], "K4", "EC")
    announce(state, seat, "move", "move:WC")
    answer(state, "react")
    arrange.rig(state, 6, 1)
    answer(state, "evade")
    assert request(state).kind == "kc_surrender" and keys(state) == ["fight", "surrender"]
    answer(state, "surrender")
    assert "VA" in table.retired and "VA" not in table.pirates
    assert table.seats[table.order[1]].vp == 5 and table.seats[seat].vp == 11
    assert request(state).kind == "choose_card"


def _in_port_recover(kc="K1", port=SANTO_DOMINGO, area="EC"):
    """Vane in voluntary D&R In Port; order[1]'s KC in the port's sea area; Recover is
    announced."""
    state, seat, vane = position(port=port)
    vane.ship.revelry = VOLUNTARY
    arrange.kc(state, state.table.order[1], kc, area)
    announce(state, seat, "recover")
    return state, seat, vane


def test_oust_at_t_ann_puts_him_at_sea_and_cancels_the_action():
    """[blackbeard §10.42] Matthews 1 + 11 + 2 = 14 against 6 + Combat 6 - 2
    (D&R) = 10: Ousted into the KC's area, the Recover lost (still in D&R), T-END opens."""
    state, _seat, vane = _in_port_recover()
    assert "kc_oust" in keys(state)
    arrange.rig(state, 1, 6)
    (oust,) = events(state, "kc_oust", "kc_oust")
    assert (oust["kc_score"], oust["defence"], oust["success"]) == (14, 10, True)
    assert vane.port is None and vane.area == "EC" and vane.ship.revelry == VOLUNTARY
    assert point(state) == "T-END"


def test_oust_at_t_end_leaves_the_results_standing():
    """[blackbeard §10.42] Passed at T-ANN, the Recover ends his D&R; the Oust at T-END
    puts him At Sea, recovered."""
    state, _seat, vane = _in_port_recover()
    answer(state, "pass")
    answer(state, "pass")
    assert point(state) == "T-END" and vane.ship.revelry is None
    arrange.rig(state, 1, 6)
    answer(state, "kc_oust")
    assert vane.port is None and vane.ship.revelry is None


def test_a_failed_oust_gives_each_pirate_there_1_np():
    """[blackbeard §10.42] Barnet 1 + 7 + 2 = 10 against 6 + 4 = 10: the Oust fails, +1 NP
    to every pirate In Port there (Bonnet too), and the Recover goes on."""
    state, seat, vane = position(port=SANTO_DOMINGO)
    bonnet = arrange.pirate(state, seat, "BO", "EC", port=SANTO_DOMINGO, ship="sloop")
    bonnet.ship.combat = 0
    vane.ship.revelry = VOLUNTARY
    arrange.kc(state, state.table.order[1], "K8", "EC")
    announce(state, seat, "recover")
    arrange.rig(state, 1, 6)
    (oust,) = events(state, "kc_oust", "kc_oust")
    assert not oust["success"] and (vane.notoriety, bonnet.notoriety) == (1, 1)
    pass_all(state)
    assert vane.ship.revelry is None and vane.port == SANTO_DOMINGO


def test_no_oust_from_another_area_nor_in_a_pirate_port_where_the_kc_attacks_it():
    """[blackbeard §10.41, §10.42] A KC next door may not Oust. In Tortuga (a Pirate Port)
    there is no Oust but an attack on the port: 6 + 11 + 2 = 19 against 1 + 6 - 2 (D&R) = 5, Vane
    At Sea with 1 Combat hit, Tortuga destroyed, the Action lost."""
    state, _seat, _vane = _in_port_recover(area="WC")
    assert "kc_oust" not in keys(state)
    state, _seat, vane = _in_port_recover(port=TORTUGA)
    assert "kc_oust" not in keys(state) and f"kc_port:{TORTUGA}" in keys(state)
    arrange.rig(state, 6, 1)
    (attack,) = events(state, f"kc_port:{TORTUGA}", "kc_port_attack")
    assert attack["success"] and attack["defenders"] == {"VA": 5}
    assert vane.port is None and vane.ship.combat == 5 and state.table.ports[TORTUGA].destroyed
    assert point(state) == "T-END"


def test_kc_attack_on_an_empty_pirate_port_destroys_it_at_once():
    """[blackbeard §10.41] Nobody In Port at New Providence: the KC in the South Atlantic
    destroys it with no roll; it is his KC AP Action (no other KC act this turn)."""
    state, seat, _vane = position()
    table = state.table
    arrange.kc(state, table.order[1], "K1", "SA")
    arrange.kc(state, table.order[2], "K2", "SA")
    announce(state, seat, "move", "move:WC")
    answer(state, f"kc_port:{NEW_PROVIDENCE}")
    assert table.ports[NEW_PROVIDENCE].destroyed
    assert polled(state) == (table.order[2], "T-ANN", ["pass"])


def test_an_oust_never_touches_the_kc_controllers_own_pirate():
    """[blackbeard §10.22, §10.42] Order[1]'s own Bonnet In Port at Santo Domingo is not
    counted in the defence (6 + 6 - 2 = 10 < 14) and stays In Port."""
    state, seat, vane = position(port=SANTO_DOMINGO)
    vane.ship.revelry = VOLUNTARY
    bonnet = arrange.pirate(state, state.table.order[1], "BO", "EC", port=SANTO_DOMINGO)
    arrange.kc(state, state.table.order[1], "K1", "EC")
    announce(state, seat, "recover")
    arrange.rig(state, 1, 6)
    (oust,) = events(state, "kc_oust", "kc_oust")
    assert oust["defence"] == 10 and oust["success"]
    assert vane.port is None and bonnet.port == SANTO_DOMINGO


def test_a_lost_kc_battle_kills_both_allies_the_controller_scores_half_of_each():
    """[blackbeard §11.12, §10.36] Vane (NP 9) and Low (NP 5) allied: one battle, the
    alliance's Combat 6 + both Skills 7; 6 + 8 + 2 = 16 beats 1 + 13 = 14: both die; the
    owner scores 9 + 5, the controller 4 + 2."""
    state, seat, vane = position()
    table = state.table
    low = arrange.pirate(state, seat, "LW", "EC")
    low.deployed_turn = 0
    vane.notoriety, low.notoriety = 9, 5
    table.ally(vane, low)
    arrange.kc(state, table.order[1], "K4", "EC")
    announce(state, seat, "move", "move:WC")
    answer(state, "react")
    arrange.rig(state, 6, 1)
    (battle,) = events(state, "fight", "kc_battle")
    assert (battle["score"], battle["against"]) == (14, 16)
    assert not table.pirates and table.seats[seat].vp == 14
    assert table.seats[table.order[1]].vp == 6 and request(state).kind == "choose_card"


def test_the_one_hit_of_a_won_warship_battle_can_sink_him():
    """[blackbeard §6.46, §R18.12] (case E) Vane at Combat 1 beats W01 (6 + 1 + 4 = 11 against
    1 + 7 + 2 = 10): NP 10 + 7, then the 1 hit sinks him. The AP player scores half his NP
    (8), nothing per hit; the owner his NP (17)."""
    state, seat, vane = _loot()
    table = state.table
    vane.notoriety, vane.ship.combat = 10, 1
    answer(state, "patrol")
    arrange.rig(state, 1, 6)
    answer(state, "fight")
    assert "VA" in table.dead
    assert table.seats[table.order[1]].vp == 8 and table.seats[seat].vp == 17


def test_a_crew_brought_to_loyalty_0_by_an_act_mutinies_at_its_end():
    """[blackbeard §14.12, §R5.9, §R4.3] Scurvy Outbreak takes Vane's crew from 1 to 0: the
    mutiny follows the act; 6 > Leadership 2, it succeeds: Kennedy takes the ship and the
    Move ends with no T-END."""
    state, seat, vane = position()
    table = state.table
    vane.ship.loyalty = 1
    arrange.pirate_hand(state, seat, ["EN", "KE"])
    arrange.hand(state, table.order[1], [DATA.card("scurvy_outbreak").number])
    announce(state, seat, "move", "move:WC")
    arrange.rig(state, 6)
    answer(state, f"card:{DATA.card('scurvy_outbreak').number}")
    assert request(state).kind == "new_captain"
    answer(state, "pirate:KE")
    kennedy = table.pirates["KE"]
    assert "VA" not in table.pirates and kennedy.area == "EC" and kennedy.ship.scurvy
    assert request(state).kind == "choose_card"


def test_retirement_a_opens_no_window():
    """[blackbeard §R4.3] Retirement A (a Pirate Port): no T-ANN, no T-END, though
    a KC is next to Tortuga."""
    state, seat, _vane = position(port=TORTUGA)
    arrange.kc(state, state.table.order[1], "K1", "EC")
    announce(state, seat, "retire", "retire:A")
    assert "VA" in state.table.retired and request(state).kind == "choose_card"


def test_a_half_move_has_its_t_enter_only_in_the_second_move():
    """[blackbeard §10.32, §7.12] Speed -1: the first Move opens no T-ENTER, the
    second does."""
    state, seat, vane = position()
    vane.ship.speed = -1
    arrange.kc(state, state.table.order[1], "K1", "SA")
    announce(state, seat, "move", "move:WC", count=2)
    assert [p for _s, p in pass_all(state)] == ["T-ANN", "T-ANN", "T-END", "T-END"]
    then(state, "pirate:VA", "action:move", "move:WC")
    answer(state, "pass")
    answer(state, "pass")
    assert polled(state) == (state.table.order[1], "T-ENTER", ["pass", "react"])


def test_an_escape_after_a_locate_returns_the_merchant_only_if_it_was_located():
    """[blackbeard §6.45] Vane evades the patrol at W3: after a successful Locate (3 + 4 =
    7) the merchant goes back to the pool; after a failed one it stays, face down."""
    for roll, located in ((3, True), (2, False)):
        state, seat, _vane = position()
        arrange.merchant(state, SANTO_DOMINGO, "M23")
        arrange.patrol(state, "EC", "W01")
        announce(state, seat, "locate", f"port:{SANTO_DOMINGO}")
        answer(state, "pass")
        arrange.rig(state, roll)
        answer(state, "pass")
        answer(state, "patrol")
        arrange.rig(state, 1, 2)  # 1 + 4 against 2 + 3: escaped
        answer(state, "evade")
        assert (SANTO_DOMINGO in state.table.merchants) is not located
        if not located:
            assert not state.table.merchants[SANTO_DOMINGO].face_up
        assert point(state) == "T-END"


def test_a_kc_moved_by_its_ap_action_may_react_at_the_same_point():
    """[blackbeard §10.12, §R4.3] (L6) Order[1] moves his KC from the South
    Atlantic into the Western Caribbean at T-ANN of a Loot; polled again, he may React
    (-1, it moves in)."""
    state, _seat, _vane = looting(kc=("K1", "SA"))
    assert "react" not in keys(state)
    answer(state, "kc_move:WC")
    assert polled(state) == (state.table.order[1], "T-ANN", ["pass", "react"])
    (reacted,) = events(state, "react", "kc_reacted")
    assert (reacted["from"], reacted["to"], reacted["modifier"]) == ("WC", "EC", -1)
