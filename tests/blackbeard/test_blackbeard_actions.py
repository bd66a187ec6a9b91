"""The Pirate Actions [blackbeard §4.5], each on a concrete position with set dice, and
the windows around them [blackbeard §R4.3]."""

from __future__ import annotations

from bb_helpers import act, answer, keys, pass_polls, position, request

from admiralty.games.base import Window
from admiralty.games.blackbeard import arrange
from admiralty.games.blackbeard.pieces import INVOLUNTARY, Hostage

SAN_JUAN, SANTO_DOMINGO, BATH, NEW_PROVIDENCE, BERMUDA, TORTUGA = 52, 32, 51, 44, 41, 35


def test_move_steps_from_the_map():
    """[blackbeard §7.11, §7.3] From the Eastern Caribbean: its neighbours and its ports
    (Tortuga, a Pirate Port, included); without the extra edge Central America borders
    the Western Caribbean only."""
    state, seat, _vane = position()
    arrange.actions(state, seat, 1)
    answer(state, "pirate:VA")
    answer(state, "action:move")
    assert request(state).kind == "move_to"
    assert keys(state) == [
        "move:WC",
        "move:SM",
        "port:16",
        "port:32",
        "port:35",
        "port:52",
        "port:61",
    ]
    other, _seat2, ship = position(map_extra_edges=False)
    ship.area = "CM"
    steps = other.table.steps(ship)
    assert [kind_place[1] for kind_place in steps if kind_place[0] == "area"] == ["WC"]


def test_a_move_is_polled_at_t_ann_and_t_end_by_the_others_in_player_order():
    """[blackbeard §R4.3, §4.63] Each other player, from the one after the Pirate Player,
    is offered PASS (an INTERRUPT; alone, with no card to play, KC or NP to strike at),
    before and after the step."""
    state, seat, vane = position()
    table = state.table
    for other in table.order[1:]:
        arrange.hand(state, other, [])
    arrange.actions(state, seat, 1)
    answer(state, "pirate:VA")
    answer(state, "action:move")
    answer(state, "move:WC")
    asked = []
    while request(state).kind == "anti_pirate":
        open_request = request(state)
        assert open_request.window == Window.INTERRUPT and keys(state) == ["pass"]
        asked.append((open_request.seat, vane.area))
        answer(state, "pass")
    after = table.order[1], table.order[2]
    assert asked == [(after[0], "EC"), (after[1], "EC"), (after[0], "WC"), (after[1], "WC")]


def test_an_anti_pirate_port_is_closed_and_bermuda_leads_to_two_areas():
    """[blackbeard §7.3, §9.31] An Anti-Pirate Governor at San Juan closes it to Vane; a
    Spanish Letter of Marque opens it. Leaving Bermuda: North or Central Atlantic."""
    state, _seat, vane = position()
    state.table.ports[SAN_JUAN].governor = state.table.anti_governors.pop()
    assert ("port", SAN_JUAN) not in state.table.steps(vane)
    vane.ship.letter_of_marque = "spanish"
    assert ("port", SAN_JUAN) in state.table.steps(vane)
    vane.area, vane.port = "NA", BERMUDA
    assert state.table.steps(vane) == [("area", "NA"), ("area", "CA")]


def test_speed_below_zero_needs_two_moves_of_one_card():
    """[blackbeard §7.12] The step is taken on the second Move."""
    state, seat, vane = position()
    vane.ship.speed = -1
    arrange.actions(state, seat, 2)
    act(state, "VA", "move", "move:WC")
    pass_polls(state)
    assert vane.area == "EC" and vane.half_move == "move:WC"
    answer(state, "pirate:VA")
    answer(state, "action:move")  # the one destination is applied at once
    pass_polls(state)
    pass_polls(state)
    assert vane.area == "WC" and vane.half_move is None


def test_locate_needs_seven_and_turns_the_merchant_face_up():
    """[blackbeard §8.13, §8.15] Vane (Ability 4) rolls 3: 7, located. A second pirate
    later gets +1 on the face-up merchant."""
    state, seat, _vane = position()
    arrange.merchant(state, SANTO_DOMINGO, "M23")
    arrange.merchant(state, 16, "M01")
    arrange.pirate(state, seat, "BO", "EC")
    arrange.actions(state, seat, 3)
    arrange.rig(state, 2)
    act(state, "VA", "locate", f"port:{SANTO_DOMINGO}")
    assert not state.table.merchants[SANTO_DOMINGO].face_up
    arrange.rig(state, 3)
    act(state, "VA", "locate", f"port:{SANTO_DOMINGO}")
    merchant = state.table.merchants[SANTO_DOMINGO]
    assert merchant.face_up and merchant.located_by == "VA"
    shown = {m["port"]: m for m in state.view(None)["merchants"]}
    assert shown[SANTO_DOMINGO]["type"] == "brig" and shown[16]["type"] is None
    arrange.rig(state, 4)  # Bonnet (Ability 2): 4 + 2 + 1 = 7
    act(state, "BO", "locate", f"port:{SANTO_DOMINGO}")
    assert merchant.located_by == "BO"


def test_loot_the_rulebook_example():
    """[blackbeard §8.32, §8.33, §8.45] Vane's Schooner, holds full, loots a Brig in the
    Eastern Caribbean: 6 + 3 = 9, 2,500 doubloons and Loyalty +1. He dumps the 400 hold.
    The Captain (5/2) is tortured: 4 > Cruelty 3, 5 Information for Santo Domingo, 2 NP."""
    state, seat, vane = position()
    vane.ship.holds = [400, 600, 800]
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    state.table.hostage_pool.remove("H09")
    state.table.hostage_pool, stash = ["H09"], state.table.hostage_pool
    arrange.actions(state, seat, 1)
    arrange.rig(state, 6)
    act(state, "VA", "loot")
    state.table.hostage_pool = sorted(state.table.hostage_pool + stash)
    assert request(state).kind == "loot_keep"
    answer(state, "keep")
    assert request(state).kind == "cargo_hold"
    assert keys(state) == ["dump:0", "dump:1", "dump:2", "convert:brig", "leave"]
    answer(state, "dump:0")
    assert vane.ship.holds == [2500, 600, 800] and vane.notoriety == 3
    arrange.rig(state, 4)
    answer(state, "torture")
    pass_polls(state)  # the roll point: Vane has Cunning left
    assert vane.information == {SANTO_DOMINGO: 5} and vane.notoriety == 5
    assert vane.ship.loyalty == 9
    answer(state, "no")  # no D&R
    assert SANTO_DOMINGO not in state.table.merchants and "M23" in state.table.merchant_pool
    assert "H09" in state.table.hostage_pool


def test_declining_the_booty_costs_loyalty():
    """[blackbeard §8.32]"""
    state, seat, vane = position()
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    arrange.actions(state, seat, 1)
    act(state, "VA", "loot")
    answer(state, "decline")
    assert vane.ship.loyalty == 6 and vane.notoriety == 0
    assert SANTO_DOMINGO not in state.table.merchants and len(state.table.hostage_pool) == 15


def test_converting_to_a_larger_ship():
    """[blackbeard §8.5] A Schooner with 3 full holds takes a Brig: the 3 cargoes stay,
    the new one goes in the 4th hold, Loyalty +1, the Brig undamaged."""
    state, seat, vane = position()
    vane.ship.holds, vane.ship.combat = [400, 600, 800], 2
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    arrange.actions(state, seat, 1)
    arrange.rig(state, 1)  # 1 + 3 = 4: 800 doubloons, no Loyalty change
    act(state, "VA", "loot")
    answer(state, "keep")
    answer(state, "convert:brig")
    ship = vane.ship
    assert (ship.type, ship.combat, ship.speed, ship.holds) == ("brig", 7, 1, [400, 600, 800, 800])
    assert ship.loyalty == 8


def test_in_port_ransom_and_cash_at_a_safe_haven():
    """[blackbeard §9.42, §9.43] The Governor's Daughter (Value 6), English, at Bath, his
    Safe Haven: 2d6 = 8, 2,400 into the 500 hold; cashing 500 + 2,900 at 110 % gives
    3,740."""
    state, seat, vane = position()
    vane.area, vane.port = "CA", BATH
    state.table.ports[BATH].governor = "G01"
    state.table.ports[BATH].safe_haven = "VA"
    state.table.hostage_pool.remove("H01")
    vane.ship.hostages = [Hostage("H01", "english")]
    vane.ship.holds = [500, 500, 0]
    arrange.actions(state, seat, 1)
    act(state, "VA", "in_port")
    assert request(state).kind == "ransom"
    arrange.rig(state, 3, 5)
    answer(state, "yes")
    pass_polls(state)  # the roll point (Vane has Cunning left)
    answer(state, "hold:1")
    assert vane.ship.holds == [500, 2900, 0] and "H01" in state.table.hostage_pool
    answer(state, "cash:0+1")
    assert vane.net_worth == 3740 and vane.ship.holds == [0, 0, 0]
    answer(state, "no")  # no D&R
    assert state.table.turn.active_pirate == "VA"


def test_cashing_in_a_pirate_port_brings_revelry():
    """[blackbeard §9.35, §9.43, §13.21] 1:1, then involuntary D&R with Loyalty +3."""
    state, seat, vane = position()
    vane.port = TORTUGA
    vane.ship.holds = [700, 0, 0]
    arrange.actions(state, seat, 1)
    act(state, "VA", "in_port")
    answer(state, "cash:0")
    assert vane.net_worth == 700
    assert vane.ship.revelry == INVOLUNTARY and vane.ship.loyalty == 10


def test_repairs_split_between_speed_and_combat():
    """[blackbeard §9.44] A 5 at a Neutral port: 3 hits removed, split as chosen."""
    state, seat, vane = position()
    vane.port = SAN_JUAN
    vane.ship.combat, vane.ship.speed = 4, 1
    arrange.actions(state, seat, 1)
    arrange.rig(state, 5)
    act(state, "VA", "in_port")
    assert request(state).kind == "repair_split"
    assert keys(state) == ["repair:speed=1,combat=2", "repair:speed=2,combat=1"]
    answer(state, "repair:speed=2,combat=1")
    assert (vane.ship.speed, vane.ship.combat) == (3, 5)


def test_port_attack_success_the_rulebook_example():
    """[blackbeard §9.52, §9.53, §9.58] Condent takes San Juan (Value 2): booty 2d6 = 5 + 2
    = 7, 700 doubloons; NP +4, Loyalty +1, then Combat -1; he is In Port; every Spanish
    port is now Anti-Pirate for him."""
    state, seat, _vane = position()
    condent = arrange.pirate(state, seat, "CO", "EC", ship="schooner")
    arrange.actions(state, seat, 1)
    arrange.rig(state, 6, 1, 5, 2)  # 6 + 6 + 4 = 16 against 1 + 7; booty 5 + 2
    act(state, "CO", "attack", f"port:{SAN_JUAN}")
    assert request(state).kind == "attack_hold"
    answer(state, "hold:0")
    assert condent.ship.holds == [700, 0, 0] and condent.notoriety == 4
    assert (condent.ship.loyalty, condent.ship.combat) == (8, 5)
    assert condent.port == SAN_JUAN and condent.sack_pending == SAN_JUAN
    assert state.table.attitude(condent, SANTO_DOMINGO) == "anti_pirate"
    assert state.table.ports[SAN_JUAN].attacked


def test_port_attack_failure_the_rulebook_example():
    """[blackbeard §9.54] Condent 2 + Ability 4 + Combat 4 = 10 against 5 + 7 = 12: two
    hits, At Sea."""
    state, seat, _vane = position()
    condent = arrange.pirate(state, seat, "CO", "EC", ship="schooner")
    condent.ship.combat = 4
    arrange.actions(state, seat, 1)
    arrange.rig(state, 2, 5)
    polls = act(state, "CO", "attack", f"port:{SAN_JUAN}")
    assert condent.ship.combat == 2 and condent.port is None
    assert polls == 6  # two seats at T-ANN, T-MID (after a failed attack) and T-END


def test_sack_the_rulebook_example():
    """[blackbeard §9.55] 5 + Cruelty 3 = 8 > 7: San Juan destroyed, NP +4, Loyalty +2 in
    all with the involuntary D&R, Condent At Sea."""
    state, seat, _vane = position()
    condent = arrange.pirate(state, seat, "CO", "EC", port=SAN_JUAN, ship="schooner")
    condent.sack_pending = SAN_JUAN
    arrange.actions(state, seat, 1)
    arrange.rig(state, 5)
    act(state, "CO", "sack")
    assert state.table.ports[SAN_JUAN].destroyed and condent.port is None
    assert condent.notoriety == 4 and condent.ship.loyalty == 9
    assert condent.ship.revelry == INVOLUNTARY


def test_booty_grab_the_rulebook_example():
    """[blackbeard §9.62, §9.63] Low 4 + 3 + 1 = 8 against Bonnet 3 + 2 = 5; Low rolls 3:
    (3 + 3) x 10 = 60 % of Bonnet's 1,000, taken in the order Bonnet chooses."""
    state, seat, _vane = position()
    low = arrange.pirate(state, seat, "LW", "EC", port=SAN_JUAN)
    victim_seat = state.table.order[1]
    bonnet = arrange.pirate(state, victim_seat, "BO", "EC", port=SAN_JUAN, ship="schooner")
    bonnet.ship.revelry = INVOLUNTARY
    bonnet.ship.holds = [400, 600, 0]
    arrange.actions(state, seat, 1)
    arrange.rig(state, 4, 3, 3)
    act(state, "LW", "grab")
    order = request(state)
    assert order.kind == "hold_order" and order.seat == victim_seat
    assert order.window == Window.INTERRUPT
    answer(state, "order:1>0")
    answer(state, "hold:0")
    assert bonnet.ship.holds == [400, 0, 0] and low.ship.holds == [600, 0]
    assert bonnet.ship.booty + low.ship.booty == 1000  # doubloons conserved


def test_recovering_from_involuntary_revelry_takes_two_actions():
    """[blackbeard §13.24]"""
    state, seat, vane = position()
    vane.port = SANTO_DOMINGO
    vane.ship.revelry = INVOLUNTARY
    arrange.actions(state, seat, 2)
    act(state, "VA", "recover")
    pass_polls(state)
    assert vane.ship.revelry == INVOLUNTARY and vane.recover_progress == 1
    act(state, "VA", "recover")
    assert vane.ship.revelry is None


def test_retiring_in_a_pirate_port_and_under_the_pardon():
    """[blackbeard §R18.41, §R18.3] Vane at New Providence, NP 24 and 6,300: 24 + 31 = 55 VP;
    Teach at Bath under the Pardon, NP 31 and 8,740: 31 + 87 = 118 VP. No window for
    either."""
    state, seat, vane = position()
    vane.area, vane.port, vane.notoriety, vane.net_worth = "SA", NEW_PROVIDENCE, 24, 6300
    teach = arrange.pirate(state, seat, "TE", "CA", port=BATH)
    teach.notoriety, teach.net_worth = 31, 8740
    state.table.ports[BATH].governor = state.table.anti_governors.pop()
    state.table.pardon_in_force = True
    arrange.actions(state, seat, 2)
    assert act(state, "VA", "retire", "retire:A") == 0
    assert state.table.seats[seat].vp == 55 and "VA" in state.table.retired
    assert state.table.seats[seat].vp_from_net_worth == 31
    assert act(state, "TE", "retire", "retire:C") == 0
    assert state.table.seats[seat].vp == 55 + 118


def test_action_k_draws_and_deploys_without_windows():
    """[blackbeard §5.13, §5.16]"""
    state, seat, _vane = position()
    state.table.seats[seat].pirate_cards = []
    arrange.actions(state, seat, 1)
    answer(state, "k")
    assert keys(state) == ["draw"] or request(state).kind == "deploy_drawn"
    if request(state).kind == "draw_or_deploy":
        answer(state, "draw")
    card = state.table.seats[seat].pirate_cards[0]
    answer(state, "deploy")
    answer(state, "area:IN")
    answer(state, "ship:sloop")
    assert state.table.pirates[card].area == "IN" and state.table.pirates[card].owner == seat


def test_retiring_by_bribe_at_a_pro_pirate_port():
    """[blackbeard §R18.41, §R18.3] D2 at San Juan (Pro-Pirate): a 4, 2,000 doubloons
    from 5,000 Net Worth; NP 10 + 30 = 40 VP; the Governor counts as bribed either way."""
    state, seat, vane = position()
    vane.port, vane.notoriety, vane.net_worth = SAN_JUAN, 10, 5000
    state.table.ports[SAN_JUAN].governor = "G02"
    arrange.actions(state, seat, 1)
    arrange.rig(state, 4)
    act(state, "VA", "retire", "retire:D2")
    assert request(state).kind == "pay_retirement"
    answer(state, "pay")
    assert state.table.seats[seat].vp == 40 and "VA" in state.table.retired


def test_a_refused_bribe_costs_loyalty_and_marks_the_governor():
    """[blackbeard §R18.41] D2 refused on a 2: Crew Loyalty -1, no second try there."""
    state, seat, vane = position()
    vane.port = SAN_JUAN
    state.table.ports[SAN_JUAN].governor = "G02"
    arrange.actions(state, seat, 1)
    arrange.rig(state, 2)
    act(state, "VA", "retire", "retire:D2")
    assert vane.ship.loyalty == 6 and "G02" in vane.bribed
    assert state.actions.retire_cases(vane) == []


def test_buying_a_safe_haven():
    """[blackbeard §9.45] At a Pro-Pirate port: a 3, 300 from Net Worth; the port is his."""
    state, seat, vane = position()
    vane.port, vane.net_worth = SAN_JUAN, 1000
    state.table.ports[SAN_JUAN].governor = "G02"
    arrange.actions(state, seat, 1)
    act(state, "VA", "in_port")
    assert request(state).kind == "safe_haven"
    arrange.rig(state, 3)
    answer(state, "yes")
    pass_polls(state)
    answer(state, "pay")
    assert vane.net_worth == 700 and state.table.ports[SAN_JUAN].safe_haven == "VA"
    assert state.table.attitude(vane, SAN_JUAN) == "safe_haven"


def test_the_pardon_opens_english_ports_for_retirement_only():
    """[blackbeard §R18.41] Under the Pardon an Anti-Pirate English port may be entered,
    and there the pirate may only retire or move out."""
    state, _seat, vane = position()
    vane.area = "CA"
    state.table.ports[BATH].governor = state.table.anti_governors.pop()
    assert ("port", BATH) not in state.table.steps(vane)
    state.table.pardon_in_force = True
    assert ("port", BATH) in state.table.steps(vane)
    vane.port = BATH
    assert state.actions.legal_actions(vane) == ["move", "retire"]


def test_action_k_with_a_full_hand_must_deploy_the_drawn_card():
    """[blackbeard §5.16] Three cards in hand (the 3-player limit) and a free display: the
    drawn card cannot be kept."""
    state, seat, _vane = position()
    state.table.seats[seat].pirate_cards = []
    for card in ("AV", "BE", "BO"):
        state.table.pirate_deck.remove(card)
        state.table.seats[seat].pirate_cards.append(card)
    arrange.actions(state, seat, 1)
    answer(state, "k")
    answer(state, "draw")
    assert request(state).kind == "deploy_area"  # "deploy" was the only option left
