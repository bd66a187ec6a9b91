"""Solitaire [blackbeard §R19]: one player against the Crown, whose every choice is fixed by
its priority lists and the seeded chance. Concrete positions with set dice: the setup and
the Threat Row, the Crown Phase (KC patrol, Crown draw), each row of the three moments and
their order, the budget and KC limit of each level, the end and the margin; then random
games of every level, and determinism.

Dice: an anti-pirate roll is thrown before the pirate's roll it is compared with, so
`arrange.rig(state, crown, pirate)`.
"""

from __future__ import annotations

import json
import random

import pytest
from bb_helpers import answer, keys, request

from admiralty.games.blackbeard import Blackbeard, arrange
from admiralty.games.blackbeard.options import deck_for
from admiralty.games.blackbeard.pieces import Commissioner
from admiralty.games.blackbeard.table import CROWN, DATA
from admiralty.games.flow import step
from admiralty.referee.match import checked_options

SANTO_DOMINGO, TORTUGA, SAN_JUAN = 32, 35, 52
LEVELS = ("easy", "standard", "hard")


def card(key):
    return DATA.card(key).number


def solo(level="standard", area="EC", port=None, seed=1, **options):
    """A solitaire game at `level` after setup: Vane (a Schooner) alone on the map in
    `area` (In Port at `port`), deployed in an earlier turn, his Cunning spent; an empty
    Event hand and an empty Threat Row."""
    state = arrange.ready(1, seed, solitaire_level=level, **options)
    arrange.remove_pirates(state)
    arrange.hand(state, 0, [])
    vane = arrange.pirate(state, 0, "VA", area, port=port, ship="schooner")
    vane.deployed_turn = 0
    vane.cunning_used = DATA.pirates["VA"].cunning
    row(state)
    return state, vane


def row(state, *titles):
    """The Threat Row holds exactly these titles, oldest first (taken from the deck or the
    discard pile; the old row goes back on the deck)."""
    table = state.table
    table.event_deck.extend(table.threat_row)
    table.threat_row = []
    for title in titles:
        number = card(title)
        (table.event_deck if number in table.event_deck else table.discard).remove(number)
        table.threat_row.append(number)


def crown_kc(state, kc, area):
    state.table.kc_pool.remove(kc)
    state.table.kcs[kc] = Commissioner(kc, CROWN, area)


def then(state, *chosen):
    """Answer these keys in turn (skipping one the engine applied alone); their events."""
    out = []
    for key in chosen:
        if key in keys(state):
            out += answer(state, key)
    return out


def announce(state, action, target=None, count=2):
    """Vane gets `count` Actions (not from the turn's Actions card) and announces `action`."""
    arrange.actions(state, 0, count)
    return then(state, "pirate:VA", f"action:{action}", *([target] if target else []))


def acts(events):
    """The Crown's acts among `events`: (point, option key)."""
    return [
        (e.data["point"], e.data["option"])
        for e in events
        if e.kind == "anti_pirate_act" and e.data["seat"] == CROWN
    ]


def run(state, *frames):
    """Run these frames alone (the rest of the turn dropped); their events."""
    state.flow.stop()
    state.flow.push(*frames)
    told = len(state.flow.events)
    state.flow.run()
    return state.flow.events[told:]


def moment3(state, pid="VA"):
    """Moment 3 for `pid`, the pirate of the last Action of the turn's Actions card."""
    state.table.turn.card_actor = pid
    return run(state, step(state.crown._crown_moment3))


# ---------------------------------------------------------------- setup (19.1)


def test_setup_player_a_three_pirate_cards_and_a_threat_row_of_three():
    """[blackbeard §R19.1] One seat is Player A without a roll; 3 Pirate cards dealt, a
    map limit of 2 and a hand limit of 3; 4 Event cards; cards turned up until 3 AP cards
    are in the Threat Row, the others discarded, every MPI card still in the deck."""
    state = Blackbeard().new_game(1, 7)
    table = state.table
    assert table.order == (0,) and table.limits.map_limit == 2
    assert table.limits.hand_limit == 3 and len(table.seats[0].pirate_cards) == 3
    assert len(table.seats[0].events) == 4 and len(table.threat_row) == 3
    assert all(table.deck_cards[c].cls == "AP" for c in table.threat_row)
    assert all(table.deck_cards[c].cls not in ("AP", "MPI") for c in table.discard)
    mpi = sum(c.copies for c in DATA.events.values() if c.cls == "MPI")
    assert sum(table.deck_cards[c].cls == "MPI" for c in table.event_deck) == mpi
    total = len(table.event_deck) + len(table.discard) + 4 + 3
    assert total == deck_for(table.options).total
    assert request(state).kind == "deploy_card" and request(state).seat == 0
    assert [o.key for o in request(state).options] == [
        f"pirate:{c}" for c in table.seats[0].pirate_cards
    ]


def test_the_threat_row_is_built_from_the_turned_up_cards_in_order():
    """[blackbeard §R19.1] The cards turned up after the deal: AP cards into the row in
    the order turned up, every other card to the discard pile, until the row holds 3."""
    for seed in range(12):
        state = Blackbeard().new_game(1, seed)
        (built,) = [e for e in state._setup_events if e.kind == "threat_row_built"]
        assert built.data["row"] == state.table.threat_row and len(state.table.threat_row) == 3
        assert built.data["discarded"] == state.table.discard


def test_the_player_deploys_one_or_two_pirates_within_the_map_limit():
    """[blackbeard §R19.1] Deployment: the first pirate must be placed, the second may be;
    no third (the map limit is 2)."""
    state = Blackbeard().new_game(1, 3)
    for key in (keys(state)[0], "area:EC", "ship:sloop"):
        answer(state, key)
    assert keys(state)[0] == "pass"
    for key in (keys(state)[1], "area:WC", "ship:sloop"):
        answer(state, key)
    assert len(state.table.pirates) == 2 and state.table.turn.number == 1


# ---------------------------------------------------------------- the Threat Row (19.2)


def test_the_threat_row_is_a_queue_and_the_crown_plays_the_older_copy():
    """[blackbeard §R19.2] A full row (5, Standard) discards its oldest card before a new
    one enters; with two copies of a title the older one is played (the row keeps its
    order)."""
    state, _vane = solo()
    row(state, "storm_at_sea", "doldrums", "informer", "scurvy_outbreak", "storm_at_sea")
    arrange.deck_top(state, [card("wear_and_tear")])
    run(state, step(state.crown._crown_draw, 0))
    assert state.table.threat_row == [
        card(k)
        for k in ("doldrums", "informer", "scurvy_outbreak", "storm_at_sea", "wear_and_tear")
    ]
    assert state.table.discard[-1] == card("storm_at_sea")
    state, _vane = solo()
    row(state, "storm_at_sea", "doldrums", "storm_at_sea")
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    arrange.rig(state, 1)  # the storm: no effect
    announce(state, "loot")
    assert state.table.threat_row == [card("doldrums"), card("storm_at_sea")]


# ---------------------------------------------------------------- the Crown Phase (19.2)


def test_kc_patrol_one_step_toward_the_nearest_pirate_at_sea():
    """[blackbeard §R19.2] A Crown KC in the North Atlantic, Vane in the Eastern Caribbean
    (4 steps): one step to the Central Atlantic. A KC next to him (Western Caribbean) or in
    his area does not move."""
    state, _vane = solo()
    arrange.deck_top(state, [card("fair_winds")])
    crown_kc(state, "K1", "NA")
    crown_kc(state, "K2", "WC")
    crown_kc(state, "K3", "EC")
    events = run(state, step(state.crown._crown_phase))
    assert [(e.data["kc"], e.data["to"]) for e in events if e.kind == "kc_moved"] == [("K1", "CA")]
    assert (state.table.kcs["K2"].area, state.table.kcs["K3"].area) == ("WC", "EC")


def test_kc_patrol_ties_area_number_then_pirate_id_then_the_lower_step():
    """[blackbeard §R19.2] From the North Atlantic, pirates in the Eastern Caribbean (5)
    and Central America (6) are both 4 steps away: the target is the one in the lower-
    numbered area. Two pirates in one area: the lower Pirate ID. From the Eastern
    Caribbean toward Central America two shortest paths start in the Western Caribbean (4)
    and South America (7): the KC steps to the Western Caribbean."""
    state, _vane = solo()
    arrange.pirate(state, 0, "TE", "CM").deployed_turn = 0
    crown_kc(state, "K1", "NA")
    events = run(state, step(state.crown._crown_patrol))
    (moved,) = [e.data for e in events if e.kind == "kc_moved"]
    assert moved["toward"] == "VA" and moved["to"] == "CA"
    state, _vane = solo()
    arrange.pirate(state, 0, "AV", "EC")
    crown_kc(state, "K1", "NA")
    (moved,) = [e.data for e in run(state, step(state.crown._crown_patrol)) if e.kind == "kc_moved"]
    assert moved["toward"] == "AV"
    state, _vane = solo(area="CM")
    crown_kc(state, "K1", "EC")
    (moved,) = [e.data for e in run(state, step(state.crown._crown_patrol)) if e.kind == "kc_moved"]
    assert (moved["from"], moved["to"]) == ("EC", "WC")


def test_kc_patrol_ignores_pirates_in_port_in_transit_or_beyond_the_transit_boxes():
    """[blackbeard §R19.2] Only a pirate At Sea is a target, and distances run over sea-
    area edges only: a pirate In Port, in a Transit Box or on the Gold Coast (reached only
    through a Transit Box) draws no KC."""
    for area, port in (("EC", SANTO_DOMINGO), ("T1", None), ("GC", None)):
        state, _vane = solo(area=area, port=port)
        crown_kc(state, "K1", "NA")
        assert not [e for e in run(state, step(state.crown._crown_patrol)) if e.kind == "kc_moved"]
        assert state.table.kcs["K1"].area == "NA"


def test_crown_draw_ap_to_the_row_other_cards_discarded_mpi_resolved():
    """[blackbeard §R19.2] The Crown's one card: an AP card joins the row; an AND or OR
    card is discarded; an MPI card is resolved as if the player drew it (Station Ships:
    two warships on Patrol)."""
    state, _vane = solo()
    table = state.table
    arrange.deck_top(state, [card("informer")])
    run(state, step(state.crown._crown_draw, 0))
    assert table.threat_row == [card("informer")]
    arrange.deck_top(state, [card("letter_of_marque")])
    run(state, step(state.crown._crown_draw, 0))
    assert table.discard[-1] == card("letter_of_marque") and len(table.threat_row) == 1
    arrange.deck_top(state, [card("station_ships")])
    patrols = len(table.patrols)
    run(state, step(state.crown._crown_draw, 0))
    assert len(table.patrols) == patrols + 2 and table.discard[-1] == card("station_ships")


def test_the_crown_phase_follows_every_player_turn():
    """[blackbeard §R19.2] The player ends his turn: the Crown Phase runs (its draw
    happens), then his next Player Turn starts."""
    state, _vane = solo()
    table = state.table
    arrange.deck_top(state, [card("kc_surprise"), card("fair_winds")])
    turn = table.turn.number
    events = run(state, step(state.turns._end_turn))
    kinds = [e.kind for e in events]
    assert kinds.index("crown_phase") < kinds.index("turn_started")
    assert table.threat_row == [card("kc_surprise")] and table.turn.number == turn + 1


def test_the_third_general_pardon_drawn_by_the_crown_ends_the_game():
    """[blackbeard §R19.6, §R19.2] A General Pardon counts when the Crown draws it: the
    third ends the game; Vane at sea scores his NP (case G); the margin is VP - 100."""
    state, vane = solo()
    state.table.pardons = 2
    vane.notoriety = 12
    state.table.seats[0].vp = 95
    arrange.deck_top(state, [card("general_pardon")])
    events = run(state, step(state.crown._crown_phase))
    (over,) = [e.data for e in events if e.kind == "game_over"]
    assert over == {
        "reason": "general_pardon",
        "vp": [107],
        "places": [1],
        "target": 100,
        "margin": 7,
        "won": True,
        "level": "standard",
    }
    outcome = state.outcome()
    assert outcome is not None and outcome.places == (1,) and outcome.scores == (7,)
    assert state.view(0)["outcome"] == {
        "places": [1],
        "scores": [7],
        "reason": "general_pardon",
        "vp": 107,
        "target": 100,
        "won": True,
    }


# ---------------------------------------------------------------- moment 1 (19.3)


def test_m1_reaction_by_the_kc_with_the_highest_combat_then_speed():
    """[blackbeard §R19.3] Row R: Vane At Sea announces a Move; two Crown KCs are in range:
    Chaloner Ogle (Combat 12) reacts, not William Rhett (9). Between Woodes Rogers and Peter
    Solgard (both 10) the faster, Solgard (4), reacts. A Reaction is free."""
    state, _vane = solo()
    crown_kc(state, "K3", "EC")
    crown_kc(state, "K2", "WC")
    announce(state, "move", "move:SM")
    assert request(state).kind == "kc_attack" and request(state).seat == 0
    assert request(state).prompt.startswith("Chaloner Ogle") and state.table.ap.crown == 0
    state, _vane = solo()
    crown_kc(state, "K5", "WC")
    crown_kc(state, "K6", "SM")
    announce(state, "move", "move:WC")
    assert request(state).prompt.startswith("Peter Solgard")


def test_m1_no_reaction_to_a_pirate_in_port_or_deployed_this_turn():
    """[blackbeard §R19.3, §10.31] A Move out of a port, or by a pirate deployed this
    Player Turn: no Reaction, and the Move is made."""
    state, vane = solo(port=SANTO_DOMINGO)
    crown_kc(state, "K1", "EC")
    assert acts(announce(state, "move")) == []
    assert vane.port is None and vane.area == "EC"
    state, vane = solo()
    vane.deployed_turn = state.table.turn.number
    crown_kc(state, "K1", "EC")
    announce(state, "move", "move:WC")
    assert vane.area == "WC"


def test_m1_loot_the_patrolling_warship_before_warship_sighting():
    """[blackbeard §R19.3] Rows 1 and 2: a Loot with a warship patrolling the area and
    Warship Sighting in the row: the patrol attacks (1 AP Action), the card stays."""
    state, _vane = solo()
    row(state, "warship_sighting")
    arrange.patrol(state, "EC", "W13")
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    events = announce(state, "loot")
    assert acts(events) == [("T-ANN", "patrol")]
    assert request(state).kind == "warship_attack" and state.table.ap.crown == 1
    assert state.table.threat_row == [card("warship_sighting")]


def test_m1_loot_warship_sighting_attacks_at_once():
    """[blackbeard §R19.3, §R19.4] Row 2: no patrol: Warship Sighting is played, the
    warship drawn is put on Patrol and attacks at once (no question to anyone but Vane)."""
    state, _vane = solo()
    row(state, "merchant_fights_back", "warship_sighting")
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    events = announce(state, "loot")
    assert acts(events) == [("T-ANN", f"card:{card('warship_sighting')}")]
    assert request(state).kind == "warship_attack" and "EC" in state.table.patrols
    assert state.table.threat_row == [card("merchant_fights_back")]


def test_m1_loot_merchant_fights_back_before_storm_at_sea():
    """[blackbeard §R19.3] Rows 3 and 4: with no warship act, Merchant Fights Back comes
    before Storm At Sea, whatever their order in the row; Storm At Sea when it is alone."""
    state, _vane = solo()
    row(state, "storm_at_sea", "merchant_fights_back")
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    arrange.rig(state, 1, 6)  # the merchant 1 + 3 + 5, Vane 6 + Combat + Skill: he wins
    events = announce(state, "loot")
    assert acts(events) == [("T-ANN", f"card:{card('merchant_fights_back')}")]
    assert state.table.threat_row == [card("storm_at_sea")]
    state, _vane = solo()
    row(state, "storm_at_sea")
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    arrange.rig(state, 1)
    events = announce(state, "loot")
    assert acts(events) == [("T-ANN", f"card:{card('storm_at_sea')}")]
    assert [e.data["roll"] for e in events if e.kind == "storm"] == [1]


def test_m1_reaction_then_the_ap_action_at_the_same_moment():
    """[blackbeard §R19.3] A Crown KC next door and a patrolling warship at a Loot: the
    KC Reacts first (free); Vane beats it; then the patrol attacks (the moment's one AP
    Action)."""
    state, vane = solo()
    crown_kc(state, "K4", "WC")
    arrange.patrol(state, "EC", "W01")
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    announce(state, "loot")
    assert request(state).kind == "kc_attack"
    arrange.rig(state, 1, 6)  # KC 1 + 8 + 2 - 1 ... against 6 + Combat + Skill
    events = answer(state, "fight")
    assert [e.data["kc"] for e in events if e.kind == "kc_killed"] == ["K4"]
    assert acts(events) == [("T-ANN", "patrol")] and request(state).kind == "warship_attack"
    assert vane.notoriety == 2 * DATA.kcs["K4"].combat


def test_m1_port_attack_patrol_then_sighting():
    """[blackbeard §R19.3] Rows 5 and 6: an Attack on San Juan meets the patrolling
    warship, or else Warship Sighting."""
    state, _vane = solo()
    row(state, "warship_sighting")
    arrange.patrol(state, "EC", "W01")
    assert acts(announce(state, "attack", f"port:{SAN_JUAN}")) == [("T-ANN", "patrol")]
    state, _vane = solo()
    row(state, "storm_at_sea", "warship_sighting")
    events = announce(state, "attack", f"port:{SAN_JUAN}")
    assert acts(events) == [("T-ANN", f"card:{card('warship_sighting')}")]
    assert request(state).kind == "warship_attack"


def test_m1_informer_before_the_kc_oust():
    """[blackbeard §R19.3] Rows 7 and 8: In-Port Activities at Santo Domingo (Spanish), a
    Crown KC in the Eastern Caribbean: Informer first (Vane put At Sea, the Action lost);
    without it the KC ousts (its one KC AP Action this turn)."""
    state, vane = solo(port=SANTO_DOMINGO)
    row(state, "informer")
    crown_kc(state, "K1", "EC")
    events = announce(state, "in_port")
    assert acts(events) == [("T-ANN", f"card:{card('informer')}")]
    assert vane.port is None and not state.table.ap.kc_action
    state, vane = solo(port=SANTO_DOMINGO)
    crown_kc(state, "K1", "EC")
    arrange.rig(state, 6, 1)  # KC 6 + 11 + 2 against 1 + Combat
    events = announce(state, "in_port")
    assert acts(events) == [("T-ANN", "kc_oust:K1")]
    assert [e.data["success"] for e in events if e.kind == "kc_oust"] == [True]
    assert vane.port is None and state.table.ap.kc_action


def test_m1_no_oust_in_a_pirate_port_nor_with_the_kc_action_used():
    """[blackbeard §R19.3] Row 8 needs a national port and the KC AP Action unused."""
    state, vane = solo(port=TORTUGA)
    crown_kc(state, "K1", "EC")
    assert acts(announce(state, "in_port")) == []
    state, vane = solo(port=SANTO_DOMINGO)
    crown_kc(state, "K1", "EC")
    state.table.ap.kc_action = True
    assert acts(announce(state, "in_port")) == [] and vane.port == SANTO_DOMINGO


def test_m1_move_doldrums_else_wear_and_tear_with_two_actions_left():
    """[blackbeard §R19.3] Row 9: a Move between sea areas with at least 2 AP Actions
    left: Doldrums (the Move lost), else Wear and Tear (1 Speed hit); with 1 left, or a
    Move into a port, nothing."""
    state, vane = solo()
    row(state, "wear_and_tear", "doldrums")
    assert acts(announce(state, "move", "move:WC")) == [("T-ANN", f"card:{card('doldrums')}")]
    assert vane.area == "EC"
    state, vane = solo()
    row(state, "wear_and_tear")
    speed = vane.ship.speed
    announce(state, "move", "move:WC")
    assert vane.area == "WC" and vane.ship.speed == speed - 1
    state, vane = solo()
    row(state, "doldrums")
    state.table.ap.crown = 1
    assert acts(announce(state, "move", "move:WC")) == [] and vane.area == "WC"
    state, vane = solo()
    row(state, "doldrums", "wear_and_tear")
    assert acts(announce(state, "move", f"port:{SANTO_DOMINGO}")) == []
    assert vane.port == SANTO_DOMINGO


# ---------------------------------------------------------------- moment 2 (19.3)


def test_m2_after_a_successful_locate_reaction_then_patrol():
    """[blackbeard §R19.3] After a successful Locate roll (6 + 4): the Crown KC next door
    Reacts (row R); after a failed one (1 + 4) the patrol does not attack."""
    state, _vane = solo()
    crown_kc(state, "K4", "WC")
    arrange.merchant(state, SANTO_DOMINGO, "M23")
    arrange.patrol(state, "EC", "W01")
    arrange.rig(state, 6)
    announce(state, "locate", f"port:{SANTO_DOMINGO}")
    assert request(state).kind == "kc_attack" and state.table.merchants[SANTO_DOMINGO].face_up
    state, _vane = solo()
    arrange.merchant(state, SANTO_DOMINGO, "M23")
    arrange.patrol(state, "EC", "W01")
    arrange.rig(state, 6)
    assert acts(announce(state, "locate", f"port:{SANTO_DOMINGO}")) == [("T-MID", "patrol")]
    state, _vane = solo()
    row(state, "warship_sighting")
    arrange.merchant(state, SANTO_DOMINGO, "M23")
    arrange.patrol(state, "EC", "W01")
    arrange.rig(state, 1)
    assert acts(announce(state, "locate", f"port:{SANTO_DOMINGO}")) == []
    assert request(state).kind == "choose_pirate"


def test_m2_after_a_successful_locate_warship_sighting():
    """[blackbeard §R19.3] Row 2: no patrol, Warship Sighting in the row."""
    state, _vane = solo()
    row(state, "warship_sighting")
    arrange.merchant(state, SANTO_DOMINGO, "M23")
    arrange.rig(state, 6)
    events = announce(state, "locate", f"port:{SANTO_DOMINGO}")
    assert acts(events) == [("T-MID", f"card:{card('warship_sighting')}")]
    assert request(state).kind == "warship_attack"


def test_m2_after_a_failed_port_attack_patrol_else_sighting():
    """[blackbeard §R19.3] Row 3, at the T-MID of a failed Port Attack on which no warship
    act was taken: the patrolling warship, else Warship Sighting; nothing once a warship
    act was taken on it. (Rows 5 and 6 of moment 1 come first, so this row matters only
    when neither could act at T-ANN.)"""
    sighting = f"card:{card('warship_sighting')}"
    for patrol, used, expected in (
        (True, False, "patrol"),
        (False, False, sighting),
        (True, True, None),
    ):
        state, _vane = solo()
        row(state, "warship_sighting")
        if patrol:
            arrange.patrol(state, "EC", "W01")
        state.table.ap.new_action("attack", SAN_JUAN)
        state.table.ap.warship = used
        events = run(state, step(state.crown._crown_moment, CROWN, "T-MID", "VA"))
        assert acts(events) == ([("T-MID", expected)] if expected else [])


def test_m2_debauchery_at_the_t_end_of_a_successful_port_attack_cancels_the_sack():
    """[blackbeard §R19.3] Row 4: San Juan taken (6 + 9 against 1 + 7): at T-END the Crown
    plays Debauchery & Revelry; Vane reels and may not Sack."""
    state, vane = solo()
    row(state, "debauchery_and_revelry")
    arrange.rig(state, 6, 1, 1)
    events = announce(state, "attack", f"port:{SAN_JUAN}")
    while request(state).kind != "choose_pirate":
        events += answer(state, keys(state)[-1])
    assert vane.port == SAN_JUAN and vane.ship.revelry is not None
    assert acts(events) == [("T-END", f"card:{card('debauchery_and_revelry')}")]
    answer(state, "pirate:VA")
    assert "action:sack" not in keys(state)


# ---------------------------------------------------------------- moment 3 (19.3)


def test_m3_kc_attack_on_the_pirate_port_first():
    """[blackbeard §R19.3] Row 1: Vane In Port at Tortuga with a Crown KC in the Eastern
    Caribbean: the KC attacks the Pirate Port (6 + 11 + 2 against 1 + Combat): Vane is put
    At Sea with a hit, Tortuga destroyed."""
    state, vane = solo(port=TORTUGA)
    row(state, "mutiny_conspiracy")
    crown_kc(state, "K1", "EC")
    arrange.rig(state, 6, 1)
    assert acts(moment3(state)) == [("end_of_actions", f"kc_port:{TORTUGA}")]
    assert vane.port is None and state.table.ports[TORTUGA].destroyed and state.table.ap.kc_action


def test_m3_mutiny_conspiracy_at_loyalty_7_or_less():
    """[blackbeard §R19.3] Row 2: Loyalty 7: Mutiny Conspiracy (2d6 above Loyalty); at
    Loyalty 8 it is not played and Scurvy Outbreak (row 5) is."""
    state, vane = solo()
    row(state, "scurvy_outbreak", "mutiny_conspiracy")
    vane.ship.loyalty = 7
    arrange.rig(state, 1, 1)
    assert acts(moment3(state)) == [("end_of_actions", f"card:{card('mutiny_conspiracy')}")]
    state, vane = solo()
    row(state, "scurvy_outbreak", "mutiny_conspiracy")
    vane.ship.loyalty = 8
    assert acts(moment3(state)) == [("end_of_actions", f"card:{card('scurvy_outbreak')}")]
    assert vane.ship.scurvy


def test_m3_piratical_ambition_the_top_pirate_card_challenges():
    """[blackbeard §R19.3, §R19.4] Row 3: Vane (Duel 3) is challenged by the top card of the
    Pirate deck, Stede Bonnet (Duel 2). Vane wins (3 dice against 2): NP + 5 and Loyalty
    +1, Bonnet out of the game. If the challenger wins, Vane is dead (case B) and the
    challenger's card is out of the game too."""
    for dice, vane_wins in (((6, 6, 6, 1, 1), True), ((1, 1, 1, 6, 6), False)):
        state, vane = solo()
        row(state, "piratical_ambition")
        vane.ship.loyalty = 8
        state.table.pirate_deck.remove("BO")
        state.table.pirate_deck.append("BO")
        arrange.rig(state, *dice)
        events = moment3(state)
        assert acts(events) == [("end_of_actions", f"card:{card('piratical_ambition')}")]
        assert "BO" in state.table.dead and "BO" not in state.table.pirate_deck
        assert "BO" not in state.table.pirates
        if vane_wins:
            assert vane.notoriety == 5 and vane.ship.loyalty == 9
        else:
            assert "VA" not in state.table.pirates and "VA" in state.table.dead
            assert [e.data["case"] for e in events if e.kind == "scored"] == ["B"]


def test_m3_no_ambition_against_duel_4_or_an_empty_pirate_deck():
    """[blackbeard §R19.3] Row 3 needs Duel 3 or less and a Pirate deck."""
    state, _vane = solo()
    arrange.remove_pirates(state)
    teach = arrange.pirate(state, 0, "TE", "EC")
    teach.ship.loyalty = 8
    row(state, "piratical_ambition")
    assert acts(moment3(state, "TE")) == []
    state, vane = solo()
    vane.ship.loyalty = 8
    row(state, "piratical_ambition")
    state.table.pirate_deck = []
    assert acts(moment3(state)) == []


def test_m3_kc_surprise_else_pirate_converts_else_a_deployment_attempt():
    """[blackbeard §R19.3] Row 4, At Sea with room for a Crown KC: KC Surprise (a KC drawn
    into his area, owned by the Crown); else Pirate Converts (the ex-pirate); else, NP 10 or
    more, a deployment attempt (3d6 under NP)."""
    state, vane = solo()
    vane.ship.loyalty = 8
    row(state, "pirate_converts", "kc_surprise")
    moment3(state)
    (kc,) = state.table.crown_kcs()
    assert kc.area == "EC" and kc.id != "KX" and state.table.threat_row == [card("pirate_converts")]
    state, vane = solo()
    vane.ship.loyalty = 8
    row(state, "pirate_converts")
    moment3(state)
    assert [kc.id for kc in state.table.crown_kcs()] == ["KX"]
    state, vane = solo()
    vane.ship.loyalty = 8
    vane.notoriety = 10
    arrange.rig(state, 1, 2, 3)
    assert acts(moment3(state)) == [("end_of_actions", "kc_deploy")]
    assert len(state.table.crown_kcs()) == 1 and state.table.ap.crown == 1
    state, vane = solo()
    vane.ship.loyalty = 8
    vane.notoriety = 9
    assert acts(moment3(state)) == []


def test_m3_scurvy_then_debauchery_with_booty():
    """[blackbeard §R19.3] Row 5: At Sea without Scurvy: Scurvy Outbreak. Row 6: In Port
    at Santo Domingo with Booty in a hold: Debauchery & Revelry; with empty holds, nothing."""
    state, vane = solo()
    vane.ship.loyalty = 8
    row(state, "debauchery_and_revelry", "scurvy_outbreak")
    vane.ship.holds[0] = 300
    assert acts(moment3(state)) == [("end_of_actions", f"card:{card('scurvy_outbreak')}")]
    state, vane = solo(port=SANTO_DOMINGO)
    vane.ship.loyalty = 8
    row(state, "debauchery_and_revelry", "scurvy_outbreak")
    vane.ship.holds[0] = 300
    assert acts(moment3(state)) == [("end_of_actions", f"card:{card('debauchery_and_revelry')}")]
    assert vane.ship.revelry is not None
    state, vane = solo(port=SANTO_DOMINGO)
    vane.ship.loyalty = 8
    row(state, "debauchery_and_revelry")
    assert acts(moment3(state)) == []


def test_m3_is_skipped_without_a_pirate_or_budget():
    """[blackbeard §R19.3] No Action performed with the card (or its pirate gone), or no
    budget left: no act."""
    state, vane = solo()
    row(state, "scurvy_outbreak")
    assert acts(moment3(state, None)) == []
    state.table.ap.crown = state.table.level.ap_budget
    assert acts(moment3(state)) == [] and not vane.ship.scurvy


def test_m3_follows_the_actions_of_the_turns_actions_card_only():
    """[blackbeard §R19.3] Vane plays Doldrums for its 1 Action and Moves: when the card's
    Actions are over the Crown plays Scurvy Outbreak on him (moment 3). Actions not from
    the turn's Actions card never trigger it."""
    state, vane = solo()
    row(state, "scurvy_outbreak")
    arrange.hand(state, 0, [card("doldrums")])
    arrange.cards(state, 0)
    events = then(
        state, f"card:{card('doldrums')}", "use:actions", "pirate:VA", "action:move", "move:WC"
    )
    assert ("end_of_actions", f"card:{card('scurvy_outbreak')}") in acts(events)
    state, vane = solo()
    row(state, "scurvy_outbreak")
    events = announce(state, "move", "move:WC", count=1)
    assert acts(events) == [] and not vane.ship.scurvy


# ---------------------------------------------------------------- budget and KC limit (19.7)


@pytest.mark.parametrize("level", LEVELS)
def test_the_budget_per_player_turn_by_level(level):
    """[blackbeard §R19.7, §R19.2] Easy 1, Standard 2, Hard 3 AP Actions per Player Turn:
    with one left the Crown still acts, with none it does not (a Reaction is free)."""
    budget = {"easy": 1, "standard": 2, "hard": 3}[level]
    for used, acted in ((budget - 1, True), (budget, False)):
        state, _vane = solo(level)
        row(state, "scurvy_outbreak")
        state.table.ap.crown = used
        assert bool(acts(moment3(state))) is acted
    state, _vane = solo(level)
    crown_kc(state, "K4", "WC")
    state.table.ap.crown = budget
    announce(state, "move", "move:SM")
    assert request(state).kind == "kc_attack"


@pytest.mark.parametrize("level", LEVELS)
def test_the_kc_limit_and_the_row_size_by_level(level):
    """[blackbeard §R19.7, §R19.2] KC limit 1/2/3: with that many Crown KCs, KC Surprise is
    not played; one fewer, it is. The row holds 4/5/6 cards."""
    limit = {"easy": 1, "standard": 2, "hard": 3}[level]
    for count, played in ((limit, False), (limit - 1, True)):
        state, vane = solo(level, area="GC")
        vane.ship.loyalty = 8
        vane.ship.scurvy = True
        row(state, "kc_surprise")
        for kc in ("K1", "K2", "K3")[:count]:
            crown_kc(state, kc, "NA")
        assert bool(acts(moment3(state))) is played
        assert len(state.table.crown_kcs()) == limit
    state, _vane = solo(level)
    size = {"easy": 4, "standard": 5, "hard": 6}[level]
    for _ in range(size + 2):
        state.crown.threat_row_add(card("storm_at_sea"))
    assert len(state.table.threat_row) == size


# ---------------------------------------------------------------- other changes (19.5)


def test_no_booty_grab_and_ap_cards_only_for_actions():
    """[blackbeard §R19.5] No rival pirates: Booty Grab is never offered. An AP card in the
    hand is only an Actions card: once the turn's Actions card is played it is not
    offered."""
    state, _vane = solo(port=SANTO_DOMINGO)
    arrange.pirate(state, 0, "TE", "EC", port=SANTO_DOMINGO).ship.holds[0] = 500
    arrange.actions(state, 0, 2)
    answer(state, "pirate:VA")
    assert "action:grab" not in keys(state)
    state, _vane = solo()
    arrange.hand(state, 0, [card("storm_at_sea")])
    arrange.cards(state, 0)
    answer(state, f"card:{card('storm_at_sea')}")
    assert state.table.turn.actions_card_used
    state, _vane = solo()
    arrange.hand(state, 0, [card("storm_at_sea"), card("doldrums")])
    state.table.turn.actions_card_used = True
    state.flow.stop()
    state.table.turn.phase = "cards"
    state.table.turn.hup_played = True
    state.flow.push(step(state.turns._card_phase))
    state.flow.run()
    assert keys(state) == ["end"]


def test_the_crown_scores_nothing():
    """[blackbeard §R19.5] A pirate killed by a Crown KC: the player scores case B (his
    NP); nobody scores case C."""
    state, vane = solo()
    vane.notoriety = 8
    crown_kc(state, "K2", "EC")
    announce(state, "move", "move:WC")
    arrange.rig(state, 6, 1)
    events = answer(state, "fight")
    assert [(e.data["seat"], e.data["case"]) for e in events if e.kind == "scored"] == [(0, "B")]


# ---------------------------------------------------------------- the end (19.6)


def test_the_game_ends_when_the_player_has_no_pirate_card_or_deck():
    """[blackbeard §R19.6] Vane, the player's last pirate, dies fighting a Crown KC with
    no Pirate card in hand and the Pirate deck empty: the game ends at once; 0 VP against
    the target 100 is a margin of -100, a loss."""
    state, _vane = solo()
    state.table.seats[0].pirate_cards = []
    state.table.pirate_deck = []
    crown_kc(state, "K2", "EC")
    announce(state, "move", "move:WC")
    arrange.rig(state, 6, 1)
    events = answer(state, "fight")
    (over,) = [e.data for e in events if e.kind == "game_over"]
    assert over["reason"] == "no_pirates" and over["margin"] == -100 and not over["won"]
    assert state.outcome().scores == (-100,) and not state.pending()


def test_no_end_while_a_pirate_card_is_left():
    """[blackbeard §R19.6] The same death with a Pirate card still in the deck: play goes
    on."""
    state, _vane = solo()
    state.table.seats[0].pirate_cards = []
    state.table.pirate_deck = ["BO"]
    crown_kc(state, "K2", "EC")
    announce(state, "move", "move:WC")
    arrange.rig(state, 6, 1)
    answer(state, "fight")
    assert state.outcome() is None and state.pending()


@pytest.mark.parametrize(("level", "target"), [("easy", 75), ("standard", 100), ("hard", 125)])
def test_victory_is_the_target_of_the_level(level, target):
    """[blackbeard §R19.6, §R19.7] Exactly the target wins with margin 0; one VP less
    loses with margin -1."""
    for vp, won in ((target, True), (target - 1, False)):
        state, _vane = solo(level, port=SANTO_DOMINGO)
        state.table.seats[0].vp = vp
        state.table.pardons = 2
        arrange.deck_top(state, [card("general_pardon")])
        events = run(state, step(state.crown._crown_draw, 0))
        (over,) = [e.data for e in events if e.kind == "game_over"]
        assert (over["margin"], over["won"], over["target"]) == (vp - target, won, target)


# ---------------------------------------------------------------- difficulty (19.7)


def test_the_level_sets_option_8_unless_the_host_turns_it_off():
    """[blackbeard §R19.7] Option 8 (+2 to warship and KC rolls) at its default follows the
    level: off at Easy, on at Standard and Hard; turned off by the host it is off at every
    level. The same options give the same game whether the host's or already resolved (as
    the platform passes them); a game of several players ignores the level."""
    game = Blackbeard()

    def plus2(players=1, **options):
        return game.new_game(players, 1, options).table.options["option_2_4_plus2"]

    assert (plus2(solitaire_level="easy"), plus2(), plus2(solitaire_level="hard")) == (
        False,
        True,
        True,
    )
    assert not plus2(solitaire_level="hard", option_2_4_plus2=False)
    assert not plus2(solitaire_level="easy", option_2_4_plus2=True)
    resolved = checked_options("blackbeard", 1, {"solitaire_level": "easy"})
    assert (
        game.new_game(1, 4, resolved).digest()
        == game.new_game(1, 4, {"solitaire_level": "easy"}).digest()
    )
    assert plus2(3, solitaire_level="easy")
    assert game.info.min_players == 1
    assert [actor.name for actor in game.info.automated] == ["the Crown"]


def test_the_view_shows_the_crown():
    """[blackbeard §R19.2] The Threat Row is public: the view shows it, the budget and its
    use, the KC limit and the Crown's KCs (owner -1), the target."""
    state, _vane = solo("hard")
    row(state, "informer", "doldrums")
    crown_kc(state, "K1", "NA")
    state.table.ap.crown = 1
    view = state.view(None)
    assert view["crown"] == {
        "level": "hard",
        "threat_row": [card("informer"), card("doldrums")],
        "threat_row_limit": 6,
        "budget": 3,
        "budget_used": 1,
        "kc_limit": 3,
        "kcs": ["K1"],
        "vp_target": 125,
    }
    assert {"id": "K1", "owner": None, "area": "NA", "crown": True} in view["kcs"]
    json.dumps(state.view(0))
    assert "crown" not in arrange.ready(3, 1).view(None)


# ---------------------------------------------------------------- random games


def _check(state):
    """The invariants of every solitaire position."""
    table = state.table
    level = table.level
    for open_request in state.pending():
        assert open_request.seat == 0 and open_request.kind != "anti_pirate"
        if open_request.kind == "choose_action":
            assert "action:grab" not in [o.key for o in open_request.options]
    assert len(table.threat_row) <= level.threat_row
    assert all(table.deck_cards[c].cls == "AP" for c in table.threat_row)
    assert len(table.crown_kcs()) <= level.kc_limit
    assert table.ap.crown <= level.ap_budget
    assert all(kc.owner == CROWN for kc in table.kcs.values())
    if state.pending() and state.pending()[0].kind != "choose_card":
        return  # a card may be in play (Buried Treasure before its pirate is named)
    buried = sum(p.buried_treasure for p in table.pirates.values())
    cards = (
        len(table.event_deck)
        + len(table.discard)
        + len(table.held_out)
        + len(table.seats[0].events)
        + len(table.threat_row)
        + buried
    )
    assert cards == deck_for(table.options).total


def _play(seed, level, check=None):
    state = Blackbeard().new_game(1, seed, {"solitaire_level": level})
    rng = random.Random(seed)
    events = []
    while state.outcome() is None:
        open_request = state.pending()[0]
        events += state.apply(0, rng.randrange(len(open_request.options)))
        if check:
            check(state)
        assert len(events) < 200_000
    return state, events


@pytest.mark.parametrize("level", LEVELS)
def test_random_solitaire_games_end_with_every_invariant(level):
    """[blackbeard §R19.6, §R19.2] Random games of every level end (3rd General Pardon or
    no pirate left), every request goes to the one seat, the Crown keeps to its limits,
    every Event card is somewhere; the score is VP - target."""
    for seed in range(8):
        state, events = _play(seed, level, _check)
        (over,) = [e.data for e in events if e.kind == "game_over"]
        assert over["reason"] in ("general_pardon", "no_pirates")
        assert state.outcome().scores == (state.table.seats[0].vp - state.table.level.vp_target,)
        assert state.outcome().places == (1,)
        assert {e.data["seat"] for e in events if e.kind == "turn_started"} == {0}


def test_the_same_seed_plays_the_same_game():
    """[blackbeard §R19.3] The Crown's choices are fixed by its rules and the seeded
    chance: the same seed and answers give the same events and the same end."""
    first = _play(5, "standard")
    second = _play(5, "standard")
    assert [(e.kind, e.data) for e in first[1]] == [(e.kind, e.data) for e in second[1]]
    assert first[0].snapshot() == second[0].snapshot()
    assert [(e.kind, e.data) for e in _play(6, "standard")[1]] != [
        (e.kind, e.data) for e in first[1]
    ]


def test_a_clone_plays_on_exactly_as_its_original():
    """[blackbeard §R19.2] A clone taken mid-game (Threat Row, the Crown's budget and KCs
    included) plays on exactly as its original."""
    state = Blackbeard().new_game(1, 3, {"solitaire_level": "hard"})
    table = state.table
    rng = random.Random(3)
    for _ in range(60):
        state.apply(0, rng.randrange(len(state.pending()[0].options)))
    assert state.outcome() is None and table.turn.number > 1
    copy = state.clone()
    row = copy.table.threat_row
    assert row == table.threat_row and row is not table.threat_row
    answers = random.Random(9)
    while state.outcome() is None:
        index = answers.randrange(len(state.pending()[0].options))
        assert [(e.kind, e.data) for e in state.apply(0, index)] == [
            (e.kind, e.data) for e in copy.apply(0, index)
        ]
    assert copy.digest() == state.digest() and copy.outcome() == state.outcome()
