"""Rules on concrete positions with set dice: where a new pirate may be placed, what a
Booty-Grab ship swap carries, the holds a Booty may fill, the Sack after a failed one,
the automatic mutiny after a failed bribe, and one pirate at a time with 6-10 players."""

from __future__ import annotations

from bb_helpers import act, answer, keys, pass_polls, position, request

from admiralty.games.blackbeard import arrange
from admiralty.games.blackbeard.pieces import INVOLUNTARY, Hostage

SANTO_DOMINGO, SAN_JUAN = 32, 52


def test_a_new_pirate_is_never_placed_in_his_own_players_kc_area():
    """[blackbeard §5.13, §5.15, §10.27] Vane's player controls the KC in India: Action K
    offers every sea area but India for Avery."""
    state, seat, _vane = position()
    arrange.kc(state, seat, "K1", "IN")
    arrange.pirate_hand(state, seat, ["AV"])
    arrange.actions(state, seat, 1)
    answer(state, "k")
    answer(state, "deploy:AV")
    assert request(state).kind == "deploy_area"
    assert "area:IN" not in keys(state) and len(keys(state)) == 9


def duel_position(holds=(200, 0)):
    """Low (a Sloop, 2 Combat and 1 Speed hits, Loyalty 5, a French Attack History, an
    English Letter of Marque, Heavy Guns) and Bonnet (a Schooner in D&R, 900 doubloons, a
    hostage, a Dutch Attack History) In Port at San Juan; Low has an Action, and his Booty
    Grab is rigged to a tie: 3 + 3 + 1 against 5 + 2."""
    state = arrange.ready(3, 1)
    table = state.table
    seat, victim_seat = table.order[0], table.order[1]
    arrange.remove_pirates(state)
    low = arrange.pirate(state, seat, "LW", "EC", port=SAN_JUAN)
    ship = low.ship
    ship.combat, ship.speed, ship.loyalty, ship.holds = 3, 4, 5, list(holds)
    ship.attack_history, ship.letter_of_marque, ship.heavy_guns = {"french"}, "english", True
    bonnet = arrange.pirate(state, victim_seat, "BO", "EC", port=SAN_JUAN, ship="schooner")
    bonnet.ship.revelry, bonnet.ship.holds = INVOLUNTARY, [0, 900, 0]
    bonnet.ship.attack_history = {"dutch"}
    table.hostage_pool.remove("H15")
    bonnet.ship.hostages = [Hostage("H15", "english")]
    arrange.actions(state, seat, 1)
    arrange.rig(state, 3, 5)
    return state, low, bonnet


def test_a_ship_swap_carries_the_winners_ship_state_onto_the_new_ship():
    """[blackbeard §15.11, §5.0] Low wins the duel (4 dice of 6 against 2 of 1) and swaps:
    Bonnet's Schooner takes Low's 2 Combat and 1 Speed hits (4 and 2), his Loyalty, D&R
    state, Attack History, Letter of Marque and Heavy Guns; Bonnet's cargo and hostage stay
    aboard and Low's 200 doubloons join them."""
    state, low, _bonnet = duel_position()
    arrange.rig(state, 6, 6, 6, 6, 1, 1)
    act(state, "LW", "grab")
    assert request(state).kind == "spoils"
    answer(state, "swap")
    ship = low.ship
    assert (ship.type, ship.combat, ship.speed, ship.loyalty) == ("schooner", 4, 2, 5)
    assert ship.revelry is None and ship.attack_history == {"french"}
    assert (ship.letter_of_marque, ship.heavy_guns) == ("english", True)
    assert ship.holds == [200, 900, 0] and [h.id for h in ship.hostages] == ["H15"]
    assert "BO" in state.table.dead


def test_the_defender_who_wins_the_duel_keeps_his_revelry_on_the_new_ship():
    """[blackbeard §15.11, §13.13] Bonnet, in involuntary D&R, wins (2 dice of 6 against 4
    of 1) and swaps into Low's Sloop: still in D&R, with his Loyalty, undamaged as his own
    ship was."""
    state, low, bonnet = duel_position()
    loyalty = bonnet.ship.loyalty
    arrange.rig(state, 1, 1, 1, 1, 6, 6)
    act(state, "LW", "grab")
    answer(state, "swap")
    ship = bonnet.ship
    assert (ship.type, ship.combat, ship.speed) == ("sloop", 5, 5)
    assert (ship.revelry, ship.loyalty) == (INVOLUNTARY, loyalty)
    assert ship.attack_history == {"dutch"} and ship.letter_of_marque is None
    assert "LW" in state.table.dead and low.id not in state.table.pirates


def test_a_full_hold_is_dumped_only_when_no_hold_is_empty():
    """[blackbeard §8.33, §9.53] With an empty hold, a cargo or a port's Booty goes there:
    no full hold is offered for dumping."""
    state, seat, vane = position()
    vane.ship.holds = [400, 0, 0]
    arrange.merchant(state, SANTO_DOMINGO, "M23", face_up=True, located_by="VA")
    arrange.actions(state, seat, 2)
    arrange.rig(state, 1)
    act(state, "VA", "loot")
    answer(state, "keep")
    assert request(state).kind == "cargo_hold"
    assert keys(state) == ["hold:1", "convert:brig", "leave"]
    answer(state, "hold:1")
    answer(state, "ransom")
    answer(state, "no")  # no D&R
    pass_polls(state)
    arrange.rig(state, 6, 1, 5, 2)  # 6 + 6 + 4 = 16 against 1 + 7; booty 5 + 2
    act(state, "VA", "attack", f"port:{SAN_JUAN}")
    assert request(state).kind == "attack_hold"
    assert keys(state) == ["hold:2", "leave"]


def allies_at_san_juan():
    """Vane and Low allied In Port at San Juan, each with a Sack pending there; Low, of
    the higher Leadership on equal NP, is the Active Pirate."""
    state = arrange.ready(4, 1)
    arrange.remove_pirates(state)
    seat = state.table.order[0]
    vane = arrange.pirate(state, seat, "VA", "EC", port=SAN_JUAN, ship="schooner")
    low = arrange.pirate(state, seat, "LW", "EC", port=SAN_JUAN)
    state.table.ally(vane, low)
    vane.sack_pending = low.sack_pending = SAN_JUAN
    return state, seat, vane, low


def test_a_failed_sack_ends_the_alliances_chance_to_sack():
    """[blackbeard §9.55, §11.12] Low's Sack fails (1 + Cruelty 5 = 6, not above 7): no
    ally may try again without a new Attack."""
    state, seat, vane, low = allies_at_san_juan()
    arrange.actions(state, seat, 2)
    arrange.rig(state, 1)
    act(state, "LW", "sack")
    assert not state.table.ports[SAN_JUAN].destroyed
    assert (vane.sack_pending, low.sack_pending) == (None, None)
    assert "sack" not in state.actions.legal_actions(vane)
    assert "sack" not in state.actions.legal_actions(low)


def test_an_action_that_is_not_the_sack_ends_the_alliances_pending_sack():
    """[blackbeard §9.55, §11.12] The allies Move out of San Juan: the Sack is lost to
    both."""
    state, seat, vane, low = allies_at_san_juan()
    arrange.actions(state, seat, 1)
    act(state, "LW", "move", "move:EC")
    assert (vane.port, low.port) == (None, None)
    assert (vane.sack_pending, low.sack_pending) == (None, None)


def test_a_failed_bribe_that_drops_loyalty_to_zero_brings_the_mutiny_at_once():
    """[blackbeard §14.11, §14.12, §R18.41] D2 at San Juan refused on a 2 (no price is
    named): Crew Loyalty 1 falls to 0 and the crew mutinies; 6 is above Vane's Leadership
    2, he is dead and the top Pirate card takes his ship."""
    state, seat, vane = position()
    vane.port, vane.ship.loyalty = SAN_JUAN, 1
    state.table.ports[SAN_JUAN].governor = "G02"
    arrange.pirate_hand(state, seat, [])
    captain = state.table.pirate_deck[-1]
    arrange.actions(state, seat, 1)
    arrange.rig(state, 2, 6)
    answer(state, "pirate:VA")
    events = answer(state, "action:retire")  # D2, the one case there, is applied at once
    while request(state).kind in ("anti_pirate", "cunning", "skull_and_crossbones"):
        events += answer(state, "pass" if request(state).kind == "anti_pirate" else "accept")
    kinds = [e.kind for e in events]
    assert "retirement_refused" in kinds and "retirement_price" not in kinds
    assert kinds.index("retirement_refused") < kinds.index("mutiny")
    assert "VA" in state.table.dead and "VA" not in state.table.pirates
    assert state.table.pirates[captain].ship.loyalty == 6


def test_every_ally_at_loyalty_zero_mutinies_at_the_end_of_the_action():
    """[blackbeard §14.11, §11.13] A failed Booty Grab costs both ships 2 Loyalty: both
    crews at 0 mutiny at the end of the Action, each against his own captain (1 and 1:
    crushed)."""
    state, seat, vane, low = allies_at_san_juan()
    vane.sack_pending = low.sack_pending = None
    vane.ship.loyalty = low.ship.loyalty = 2
    bonnet = arrange.pirate(state, state.table.order[1], "BO", "EC", port=SAN_JUAN)
    bonnet.ship.revelry = INVOLUNTARY
    arrange.actions(state, seat, 1)
    arrange.rig(state, 1, 6, 1, 1)
    answer(state, "pirate:LW")
    answer(state, "action:grab")
    events = []
    while request(state).kind in ("anti_pirate", "cunning", "skull_and_crossbones"):
        events += answer(state, "pass" if request(state).kind == "anti_pirate" else "accept")
    assert [e.data["pirate"] for e in events if e.kind == "mutiny"] == ["LW", "VA"]
    assert (vane.ship.loyalty, low.ship.loyalty) == (0, 0)


def variant_position():
    """Seven players, each with his one pirate on the map and no Pirate card in hand."""
    state = arrange.ready(7, 3)
    seat = state.table.order[0]
    arrange.actions(state, seat, 1)
    return state, seat


def test_with_six_to_ten_players_a_pirate_is_drawn_only_when_the_last_is_gone():
    """[blackbeard §2.7] While his pirate is on the map, no Action K; once it is gone he
    may draw."""
    state, seat = variant_position()
    (pirate,) = state.table.pirates_of(seat)
    assert "k" not in keys(state)
    state.table.eliminate(pirate, "sunk")
    assert state.actions.k_legal(seat)


def test_with_six_to_ten_players_a_card_in_hand_is_deployed_not_drawn_on():
    """[blackbeard §2.7] No pirate on the map and Avery in hand: Action K deploys Avery and
    draws nothing."""
    state, seat = variant_position()
    (pirate,) = state.table.pirates_of(seat)
    state.table.eliminate(pirate, "sunk")
    arrange.pirate_hand(state, seat, ["AV"])
    arrange.actions(state, seat, 1)
    answer(state, "k")
    assert request(state).kind == "deploy_area"  # "deploy:AV" was the only option
