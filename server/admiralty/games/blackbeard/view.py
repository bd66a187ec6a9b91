"""The one redaction function (`view`) and the full hidden state (`snapshot`).

`view` is the only door through which a seat sees the state [blackbeard §4.68, §6.31]: its own
Event and Pirate cards, and of everyone else only their counts; face-down merchants show
their port only, to everyone; pools and deck orders show their sizes. `snapshot` holds
everything, the seed and the flow included, and never leaves the server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from admiralty.games.base import Viewer
from admiralty.games.blackbeard.data import load

if TYPE_CHECKING:
    from admiralty.games.blackbeard.pieces import Merchant, Pirate, Player
    from admiralty.games.blackbeard.state import BlackbeardState

DATA = load()


def view(state: BlackbeardState, viewer: Viewer) -> dict[str, Any]:
    outcome = state.outcome()
    return {
        "game": "blackbeard",
        "viewer": viewer,
        **_turn(state),
        "players": [_player(player, viewer == player.seat) for player in state.seats],
        "pirates": [_pirate(pirate) for pirate in _pirates(state)],
        "ports": _ports(state),
        "merchants": [_merchant(merchant, False) for merchant in _merchants(state)],
        "patrols": dict(sorted(state.patrols.items())),
        **_anti_pirate(state),
        **_crown(state),
        "pools": {"merchants": len(state.merchant_pool), "hostages": len(state.hostage_pool),
                  "warships": len(state.warship_pool), "kcs": len(state.kc_pool),
                  "anti_governors": len(state.anti_governors)},
        "event_deck": len(state.event_deck),
        "discard": state.discard[:],
        "held_out": len(state.held_out),
        "pirate_deck": len(state.pirate_deck),
        "retired": state.retired[:],
        "dead": state.dead[:],
        "pardons": state.pardons,
        "pardon_in_force": state.pardon_in_force,
        "options": dict(state.options),
        "outcome": {"places": list(outcome.places), "scores": list(outcome.scores),
                    "reason": state.end_reason, **_solitaire_result(state)}
        if outcome else None,
    }


def snapshot(state: BlackbeardState) -> dict[str, Any]:
    return {
        **_turn(state),
        "chance": state.chance.snapshot(),
        "flow": state.flow.snapshot(),
        "players": [{**_player(player, True), "seat": player.seat} for player in state.seats],
        "pirates": [_pirate(pirate) for pirate in _pirates(state)],
        "ports": _ports(state),
        "merchants": [_merchant(merchant, True) for merchant in _merchants(state)],
        "patrols": dict(sorted(state.patrols.items())),
        **_anti_pirate(state),
        **_crown(state),
        "challenger": _pirate(state.challenger) if state.challenger is not None else None,
        "merchant_pool": state.merchant_pool[:], "hostage_pool": state.hostage_pool[:],
        "warship_pool": state.warship_pool[:], "kc_pool": state.kc_pool[:],
        "anti_governors": state.anti_governors[:],
        "removed_governors": state.removed_governors[:],
        "event_deck": state.event_deck[:], "discard": state.discard[:],
        "held_out": state.held_out[:], "event_shuffles": state.event_shuffles,
        "pirate_deck": state.pirate_deck[:], "retired": state.retired[:],
        "dead": state.dead[:], "pardons": state.pardons,
        "pardon_in_force": state.pardon_in_force, "passed": state.passed[:],
        "must_revel": state.must_revel, "draws": state.draws,
        "rolled": dict(sorted(state.rolled.items())), "bonus": dict(sorted(state.bonus.items())),
        "actions_card_used": state.actions_card_used, "hup_played": state.hup_played,
        "fallbacks": state.fallbacks, "end_reason": state.end_reason,
        "counted": state.counted, "card_loop": state.card_loop, "card_actor": state.card_actor,
        "from_bermuda": state.from_bermuda[:],
        "placing": {str(seat): [list(pair) for pair in chosen]
                    for seat, chosen in sorted(state.placing.items())},
        "written": {str(seat): areas[:] for seat, areas in sorted(state.written.items())},
        "options": dict(state.options),
    }


def _turn(state: BlackbeardState) -> dict[str, Any]:
    return {"turn": state.turn, "active": state.active, "phase": state.phase,
            "order": list(state.order), "active_pirate": state.active_pirate,
            "actions_left": state.actions_left, "actions_pirate": state.actions_pirate,
            "action_number": state.action_no}


def _anti_pirate(state: BlackbeardState) -> dict[str, Any]:
    """The KCs in play and what the anti-pirate side has used this Player Turn and in
    the Action under way: all public, the facts the limits read [blackbeard §R4.3]."""
    ap = state.ap
    return {
        "kcs": [{"id": kc.id, "owner": kc.owner if kc.owner >= 0 else None, "area": kc.area,
                 "crown": kc.owner < 0}
                for kc in sorted(state.kcs.values(), key=lambda kc: kc.id)],
        "kcs_killed": state.kcs_killed[:],
        "interference": {
            "used": sorted(ap.used), "kc_action": ap.kc_action, "titles": sorted(ap.titles),
            "action": ap.action, "warship": ap.warship, "kc_deploy": ap.kc_deploy,
            "reaction": ap.reaction, "cancelled": ap.cancelled, "entering": ap.entering,
            "revelry": ap.revelry[:], "surprise": ap.surprise, "sighted": ap.sighted},
    }


def _crown(state: BlackbeardState) -> dict[str, Any]:
    """Solitaire only (`crown`): the Crown's Threat Row (public, oldest first), its budget
    and what it used this Player Turn, its KC limit and KCs (owner -1 in `kcs`), the VP
    target [blackbeard §R19.2, §R19.7]. A game of several players has no `crown` key."""
    if state.players != 1:
        return {}
    level = state.level
    return {"crown": {"level": level.key, "threat_row": state.threat_row[:],
            "threat_row_limit": level.threat_row, "budget": level.ap_budget,
            "budget_used": state.ap.crown, "kc_limit": level.kc_limit,
            "kcs": [kc.id for kc in state.crown_kcs()], "vp_target": level.vp_target}}


def _solitaire_result(state: BlackbeardState) -> dict[str, Any]:
    if state.players != 1:
        return {}
    vp, target = state.seats[0].vp, state.level.vp_target
    return {"vp": vp, "target": target, "won": vp >= target}


def _player(player: Player, own: bool) -> dict[str, Any]:
    return {
        "seat": player.seat, "vp": player.vp, "vp_from_net_worth": player.vp_from_net_worth,
        "retired": player.retired[:], "eliminated": player.eliminated[:],
        "best_notoriety": player.best_notoriety,
        "event_cards": len(player.events), "pirate_cards": len(player.pirate_cards),
        "hand": player.events[:] if own else None,
        "pirate_hand": player.pirate_cards[:] if own else None,
    }


def _pirates(state: BlackbeardState) -> list[Pirate]:
    return [state.pirates[pid] for pid in sorted(state.pirates)]


def _pirate(pirate: Pirate) -> dict[str, Any]:
    ship = pirate.ship
    return {
        "id": pirate.id, "owner": pirate.owner, "area": pirate.area, "port": pirate.port,
        "notoriety": pirate.notoriety, "net_worth": pirate.net_worth,
        "cunning_used": pirate.cunning_used,
        "information": {str(code): points for code, points in sorted(pirate.information.items())},
        "bribed": sorted(pirate.bribed), "buried_treasure": pirate.buried_treasure,
        "sack_pending": pirate.sack_pending, "deployed_turn": pirate.deployed_turn,
        "half_move": pirate.half_move, "recover_progress": pirate.recover_progress,
        "ally": pirate.ally,
        "ship": {"type": ship.type, "combat": ship.combat, "speed": ship.speed,
                 "loyalty": ship.loyalty, "holds": ship.holds[:],
                 "hostages": [{"id": h.id, "nation": h.nation} for h in ship.hostages],
                 "attack_history": sorted(ship.attack_history),
                 "letter_of_marque": ship.letter_of_marque, "heavy_guns": ship.heavy_guns,
                 "scurvy": ship.scurvy, "revelry": ship.revelry},
    }


def _ports(state: BlackbeardState) -> list[dict[str, Any]]:
    out = []
    for code, port in state.ports.items():
        if port.governor is None and not (port.destroyed or port.attacked or port.safe_haven):
            continue
        side = DATA.governors[port.governor].side if port.governor is not None else None
        out.append({"code": code, "governor": port.governor, "side": side,
                    "destroyed": port.destroyed, "attacked": port.attacked,
                    "safe_haven": port.safe_haven})
    return out


def _merchants(state: BlackbeardState) -> list[Merchant]:
    return [state.merchants[code] for code in sorted(state.merchants)]


def _merchant(merchant: Merchant, everything: bool) -> dict[str, Any]:
    shown = everything or merchant.face_up
    kind = DATA.merchants[merchant.id]
    return {"port": merchant.port, "face_up": merchant.face_up,
            "located_by": merchant.located_by,
            "id": merchant.id if shown else None,
            "type": kind.id if shown else None,
            "cargo_value": kind.cargo_value if shown else None}
