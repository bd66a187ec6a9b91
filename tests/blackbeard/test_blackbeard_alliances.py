"""Pirate Alliances [blackbeard §11.11, §11.16], Bermuda's two sea areas [blackbeard §2.2, §7.3] and
Skull and Crossbones as an Event [blackbeard §4.4, §12.0, §R4.5], on concrete positions
with set dice."""

from __future__ import annotations

from bb_helpers import answer, keys, pass_polls, request

from admiralty.games.base import Window
from admiralty.games.blackbeard import arrange
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.data import load
from admiralty.wire import codec_for, options_to_pb

DATA = load()
NEW_PROVIDENCE, SAN_JUAN, BERMUDA = 44, 52, 41
SKULL = DATA.card("skull_and_crossbones").number
NEW_GOVERNORS = DATA.card("new_governors").number


def allies(players=4, port=NEW_PROVIDENCE, area="SA"):
    """Seat order[0] with Vane (a Schooner) and Low (a Sloop) In Port together."""
    state = arrange.ready(players, 1)
    arrange.remove_pirates(state)
    seat = state.table.order[0]
    vane = arrange.pirate(state, seat, "VA", area, port=port, ship="schooner")
    low = arrange.pirate(state, seat, "LW", area, port=port)
    return state, seat, vane, low


def formed(players=4, port=NEW_PROVIDENCE, area="SA"):
    state, seat, vane, low = allies(players, port, area)
    state.table.ally(vane, low)
    return state, seat, vane, low


def test_action_i_allies_two_of_the_players_pirates_in_the_same_port():
    """[blackbeard §11.11] Action I, announced with either pirate, names the other: they
    are allies (the view shows it); it opens its windows like any Pirate Action."""
    state, seat, vane, low = allies()
    arrange.actions(state, seat, 1)
    answer(state, "pirate:VA")
    assert "action:ally" in keys(state)
    answer(state, "action:ally")  # Low, the only candidate, is named at once
    assert pass_polls(state) == 2 * (state.players - 1)  # T-ANN and T-END
    assert (vane.ally, low.ally) == ("LW", "VA")
    mine = {p["id"]: p["ally"] for p in state.view(seat)["pirates"]}
    assert mine == {"LW": "VA", "VA": "LW"}
    codec = codec_for("blackbeard")
    typed = codec.observation_pb(state.view(seat))
    assert {p.id: p.ally for p in typed.pirates} == {"LW": "VA", "VA": "LW"}
    arrange.actions(state, seat, 1)
    dissolve = next(o for o in request(state).options if o.key == "dissolve:LW")
    message = options_to_pb(codec, (dissolve,))[0]
    assert getattr(message, codec.field).dissolve is True


def test_no_alliance_apart_or_with_a_pirate_in_revelry():
    """[blackbeard §11.11, §13.22] Only two pirates in the same port, neither in D&R; one
    alliance per player."""
    state, _seat, vane, low = allies()
    low.port = None
    assert "ally" not in state.actions.legal_actions(vane)
    low.port = NEW_PROVIDENCE
    low.ship.revelry = "voluntary"
    assert "ally" not in state.actions.legal_actions(vane)
    low.ship.revelry = None
    assert state.actions.ally_targets(vane) == ["LW"]
    state2, seat2, vane2, low2 = allies(players=2)
    teach = arrange.pirate(state2, seat2, "TE", "SA", port=NEW_PROVIDENCE)
    state2.table.ally(vane2, low2)
    assert state2.actions.ally_targets(teach) == []  # 2-3 players: only two pirates allied


def test_allies_act_as_one_through_the_pirate_with_more_notoriety():
    """[blackbeard §11.12] The Active Pirate of the alliance is the one with more NP (then
    the higher Leadership); a Move takes both, at the lower Speed."""
    state, seat, vane, low = formed()
    low.notoriety = 3
    arrange.actions(state, seat, 3)
    assert "pirate:LW" in keys(state) and "pirate:VA" not in keys(state)
    low.notoriety = vane.notoriety  # a tie: the higher Leadership (Low 3, Vane 2)
    assert state.table.leads(low) and not state.table.leads(vane)
    answer(state, "pirate:LW")
    answer(state, "action:move")  # out to the South Atlantic, its only step
    pass_polls(state)
    assert (vane.port, vane.area, low.port, low.area) == (None, "SA", None, "SA")
    vane.ship.speed = -1  # the slower ship sets the pace: two Moves for one step
    answer(state, "pirate:LW")
    answer(state, "action:move")
    answer(state, "move:CA")
    pass_polls(state)
    assert (vane.area, low.area) == ("SA", "SA")
    assert low.half_move == "move:CA"


def test_allies_attack_with_the_higher_combat_and_both_skills_and_share_the_spoils():
    """[blackbeard §11.12, §11.13, §11.14] 1d6 + the higher Combat + both Skills; NP and
    Booty split equally (the odd remainder to the higher Leadership); Crew Loyalty in
    full to both; the odd Combat hit on the ship the player chooses."""
    state, seat, vane, low = formed(port=None, area="EC")
    vane.port = low.port = None
    arrange.actions(state, seat, 1)
    # the pirates' 1, the port's 6: 1 + 6 + 4 + 3 = 14 > 13; then 900 doubloons of Booty
    arrange.rig(state, 1, 6, 5, 4)
    answer(state, "pirate:LW")  # equal NP: Low's Leadership 3 over Vane's 2
    answer(state, "action:attack")
    events = answer(state, f"port:{SAN_JUAN}")
    while request(state).kind in ("anti_pirate", "cunning", "skull_and_crossbones"):
        events += answer(state, "pass" if request(state).kind == "anti_pirate" else "accept")
    attacked = next(e.data for e in events if e.kind == "port_attacked")
    assert attacked["total"] == 1 + 6 + DATA.pirates["VA"].ability + DATA.pirates["LW"].ability
    assert attacked["success"]
    assert (vane.notoriety, low.notoriety) == (2, 2)  # 2 x Value 2, split
    assert (vane.ship.loyalty, low.ship.loyalty) == (8, 8)
    assert (vane.port, low.port) == (SAN_JUAN, SAN_JUAN)
    assert request(state).kind == "attack_hold"  # 900 doubloons: 450 each
    answer(state, "hold:0")
    assert request(state).kind == "share_hold"
    answer(state, "hold:0")
    assert (vane.ship.holds[0], low.ship.holds[0]) == (450, 450)
    assert request(state).kind == "alliance_hit"  # the 1 hit of a success: odd
    assert request(state).window == Window.TURN
    answer(state, "pirate:LW")
    assert (vane.ship.combat, low.ship.combat) == (6, 4)


def test_notoriety_and_booty_shares():
    """[blackbeard §11.13] The odd NP and the odd 50 doubloons go to the higher Leadership
    (Low 3 over Vane 2), whichever ally acts."""
    state, _seat, vane, low = formed()
    state.table.shared_notoriety(vane, 5, "test")
    assert (low.notoriety, vane.notoriety) == (3, 2)
    assert mech.share(150, 50) == (100, 50)


def test_allies_cannot_use_or_receive_a_letter_of_marque():
    """[blackbeard §11.15] An allied pirate's LoM does not make its nation's ports
    Pro-Pirate, cannot retire him under 18.41 B, and no LoM is given to him."""
    state, _seat, vane, low = allies(port=SAN_JUAN, area="EC")
    table = state.table
    vane.ship.letter_of_marque = "spanish"
    assert table.attitude(vane, SAN_JUAN) == mech.PRO_PIRATE
    assert "B" in state.actions.retire_cases(vane)
    assert state.cards.lom_nations(low) == ["spanish"]
    table.ally(vane, low)
    assert table.attitude(vane, SAN_JUAN) == mech.NEUTRAL
    assert "B" not in state.actions.retire_cases(vane)
    assert state.cards.lom_nations(low) == []


def test_the_alliance_ends_when_announced_free_on_the_owners_turn():
    """[blackbeard §11.16] Between Actions and between cards, with no Active Pirate, the
    owner may announce the end of the alliance; it costs no Action."""
    state, seat, vane, low = formed()
    arrange.actions(state, seat, 2)
    assert "dissolve:LW" in keys(state)
    events = answer(state, "dissolve:LW")
    assert [e.data["reason"] for e in events if e.kind == "alliance_dissolved"] == ["announced"]
    assert (vane.ally, low.ally) == (None, None)
    assert request(state).kind == "choose_pirate" and state.table.turn.actions_left == 2
    other, seat2, vane2, _low2 = formed()
    arrange.cards(other, seat2)
    assert "dissolve:LW" in keys(other)
    answer(other, "dissolve:LW")
    assert request(other).kind == "choose_card" and vane2.ally is None


def test_the_alliance_ends_when_an_ally_leaves_play():
    """[blackbeard §11.16, §14.12] A successful mutiny (its captain is dead), a death or a
    retirement ends the alliance; the other pirate goes on alone."""
    state, _seat, vane, low = formed()
    state.table.eliminate(low, "mutiny")
    assert vane.ally is None and "LW" not in state.table.pirates


def test_an_alliance_recovers_and_does_in_port_activities_for_each_ship():
    """[blackbeard §11.12, §13.22] Either ally in D&R holds the alliance to Move and
    Recover; a Recover works on each ship in D&R."""
    state, seat, vane, low = formed()
    low.ship.revelry = "voluntary"
    assert state.actions.legal_actions(vane) == ["move", "recover"]
    arrange.actions(state, seat, 1)
    answer(state, "pirate:LW")
    answer(state, "action:recover")
    pass_polls(state)
    assert low.ship.revelry is None


def test_placed_at_sea_from_bermuda_the_owner_chooses_the_area():
    """[blackbeard §2.2, §7.3] New Governors Oust a pirate from Bermuda: his owner, here not the
    Pirate Player (an INTERRUPT), chooses North or Central Atlantic."""
    state = arrange.ready(3, 2)
    table = state.table
    arrange.remove_pirates(state)
    active, other = table.order[0], table.order[1]
    teach = arrange.pirate(state, other, "TE", "NA", port=BERMUDA)
    arrange.hand(state, active, table.seats[active].events[:3])
    arrange.deck_top(state, [NEW_GOVERNORS])
    arrange.rig(state, 4, 1, 1, 1)  # the Governors' d66: Bermuda (41), then Boston (11)
    arrange.turn(state, active)
    open_request = request(state)
    assert (open_request.kind, open_request.seat, open_request.window) == (
        "bermuda_area",
        other,
        Window.INTERRUPT,
    )
    assert keys(state) == ["area:NA", "area:CA"]
    events = answer(state, "area:CA")
    assert (teach.port, teach.area) == (None, "CA")
    assert {"pirate": "TE", "area": "CA"} in [e.data for e in events if e.kind == "bermuda_area"]


def test_skull_and_crossbones_is_played_for_its_event_at_a_roll_point():
    """[blackbeard §4.4, §12.0, §R4.5] Its Event adds +2 to a roll made for one's pirate,
    after the dice: never from the Card Play Phase between cards, where no roll waits
    (only its Actions are offered there); played at a roll point on the owner's turn it
    is the card's Event use and his Hold-until-Played play."""
    state = arrange.ready(3, 1)
    arrange.remove_pirates(state)
    seat = state.table.order[0]
    arrange.pirate(state, seat, "VA", "EC")
    arrange.merchant(state, 32, "M20")
    arrange.hand(state, seat, [SKULL])
    arrange.cards(state, seat)
    assert f"card:{SKULL}" in keys(state)
    assert state.turns._uses(SKULL) == ["actions"]  # no "event": nothing rolled to add +2 to
    state2 = arrange.ready(3, 1)
    arrange.remove_pirates(state2)
    seat2 = state2.table.order[0]
    arrange.pirate(state2, seat2, "VA", "EC")
    arrange.merchant(state2, 32, "M20")
    arrange.hand(state2, seat2, [SKULL])
    arrange.actions(state2, seat2, 1)
    state2.table.turn.hup_played = False
    arrange.rig(state2, 1)
    answer(state2, "pirate:VA")
    answer(state2, "action:locate")
    if request(state2).kind == "locate_target":
        answer(state2, "port:32")
    pass_polls_until(state2, "skull_and_crossbones")
    events = answer(state2, "skull")
    assert {"seat": seat2, "card": SKULL, "use": "event"} in [
        e.data for e in events if e.kind == "card_used"
    ]
    assert state2.table.turn.hup_played and SKULL in state2.table.discard


def pass_polls_until(state, kind):
    while request(state).kind != kind:
        answer(state, "pass" if request(state).kind == "anti_pirate" else "accept")
