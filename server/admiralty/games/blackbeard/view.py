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
    from admiralty.games.blackbeard.table import Table
    from admiralty.games.flow import Flow

DATA = load()


def view(table: Table, viewer: Viewer) -> dict[str, Any]:
    outcome = table.outcome
    return {
        "game": "blackbeard",
        "viewer": viewer,
        **_turn(table),
        "players": [_player(player, viewer == player.seat) for player in table.seats],
        "pirates": [_pirate(pirate) for pirate in _pirates(table)],
        "ports": _ports(table),
        "merchants": [_merchant(merchant, False) for merchant in _merchants(table)],
        "patrols": dict(sorted(table.patrols.items())),
        **_anti_pirate(table),
        **_crown(table),
        "pools": {
            "merchants": len(table.merchant_pool),
            "hostages": len(table.hostage_pool),
            "warships": len(table.warship_pool),
            "kcs": len(table.kc_pool),
            "anti_governors": len(table.anti_governors),
        },
        "event_deck": len(table.event_deck),
        "discard": table.discard[:],
        "held_out": len(table.held_out),
        "pirate_deck": len(table.pirate_deck),
        "retired": table.retired[:],
        "dead": table.dead[:],
        "pardons": table.pardons,
        "pardon_in_force": table.pardon_in_force,
        "options": dict(table.options),
        "outcome": {
            "places": list(outcome.places),
            "scores": list(outcome.scores),
            "reason": table.end_reason,
            **_solitaire_result(table),
        }
        if outcome
        else None,
    }


def snapshot(table: Table, flow: Flow) -> dict[str, Any]:
    turn, deployment = table.turn, table.deployment
    return {
        **_turn(table),
        "chance": table.chance.snapshot(),
        "flow": flow.snapshot(),
        "players": [{**_player(player, True), "seat": player.seat} for player in table.seats],
        "pirates": [_pirate(pirate) for pirate in _pirates(table)],
        "ports": _ports(table),
        "merchants": [_merchant(merchant, True) for merchant in _merchants(table)],
        "patrols": dict(sorted(table.patrols.items())),
        **_anti_pirate(table),
        **_crown(table),
        "challenger": _pirate(table.challenger) if table.challenger is not None else None,
        "merchant_pool": table.merchant_pool[:],
        "hostage_pool": table.hostage_pool[:],
        "warship_pool": table.warship_pool[:],
        "kc_pool": table.kc_pool[:],
        "anti_governors": table.anti_governors[:],
        "removed_governors": table.removed_governors[:],
        "event_deck": table.event_deck[:],
        "discard": table.discard[:],
        "held_out": table.held_out[:],
        "event_shuffles": table.event_shuffles,
        "pirate_deck": table.pirate_deck[:],
        "retired": table.retired[:],
        "dead": table.dead[:],
        "pardons": table.pardons,
        "pardon_in_force": table.pardon_in_force,
        "passed": deployment.passed[:],
        "must_revel": turn.must_revel,
        "draws": turn.draws,
        "rolled": dict(sorted(table.rolled.items())),
        "bonus": dict(sorted(table.bonus.items())),
        "actions_card_used": turn.actions_card_used,
        "hup_played": turn.hup_played,
        "fallbacks": turn.fallbacks,
        "end_reason": table.end_reason,
        "counted": turn.counted,
        "card_loop": turn.card_loop,
        "card_actor": turn.card_actor,
        "from_bermuda": table.from_bermuda[:],
        "placing": {
            str(seat): [list(pair) for pair in chosen]
            for seat, chosen in sorted(deployment.placing.items())
        },
        "written": {str(seat): areas[:] for seat, areas in sorted(deployment.written.items())},
        "options": dict(table.options),
    }


def _turn(table: Table) -> dict[str, Any]:
    turn = table.turn
    return {
        "turn": turn.number,
        "active": turn.active,
        "phase": turn.phase,
        "order": list(table.order),
        "active_pirate": turn.active_pirate,
        "actions_left": turn.actions_left,
        "actions_pirate": turn.actions_pirate,
        "action_number": turn.action_no,
    }


def _anti_pirate(table: Table) -> dict[str, Any]:
    """The KCs in play and what the anti-pirate side has used this Player Turn and in
    the Action under way: all public, the facts the limits read [blackbeard §R4.3]."""
    ap = table.ap
    return {
        "kcs": [
            {
                "id": kc.id,
                "owner": kc.owner if kc.owner >= 0 else None,
                "area": kc.area,
                "crown": kc.owner < 0,
            }
            for kc in sorted(table.kcs.values(), key=lambda kc: kc.id)
        ],
        "kcs_killed": table.kcs_killed[:],
        "interference": {
            "used": sorted(ap.used),
            "kc_action": ap.kc_action,
            "titles": sorted(ap.titles),
            "action": ap.action,
            "warship": ap.warship,
            "kc_deploy": ap.kc_deploy,
            "reaction": ap.reaction,
            "cancelled": ap.cancelled,
            "entering": ap.entering,
            "revelry": ap.revelry[:],
            "surprise": ap.surprise,
            "sighted": ap.sighted,
        },
    }


def _crown(table: Table) -> dict[str, Any]:
    """Solitaire only (`crown`): the Crown's Threat Row (public, oldest first), its budget
    and what it used this Player Turn, its KC limit and KCs (owner -1 in `kcs`), the VP
    target [blackbeard §R19.2, §R19.7]. A game of several players has no `crown` key."""
    if table.players != 1:
        return {}
    level = table.level
    return {
        "crown": {
            "level": level.key,
            "threat_row": table.threat_row[:],
            "threat_row_limit": level.threat_row,
            "budget": level.ap_budget,
            "budget_used": table.ap.crown,
            "kc_limit": level.kc_limit,
            "kcs": [kc.id for kc in table.crown_kcs()],
            "vp_target": level.vp_target,
        }
    }


def _solitaire_result(table: Table) -> dict[str, Any]:
    if table.players != 1:
        return {}
    vp, target = table.seats[0].vp, table.level.vp_target
    return {"vp": vp, "target": target, "won": vp >= target}


def _player(player: Player, own: bool) -> dict[str, Any]:
    return {
        "seat": player.seat,
        "vp": player.vp,
        "vp_from_net_worth": player.vp_from_net_worth,
        "retired": player.retired[:],
        "eliminated": player.eliminated[:],
        "best_notoriety": player.best_notoriety,
        "event_cards": len(player.events),
        "pirate_cards": len(player.pirate_cards),
        "hand": player.events[:] if own else None,
        "pirate_hand": player.pirate_cards[:] if own else None,
    }


def _pirates(table: Table) -> list[Pirate]:
    return [table.pirates[pid] for pid in sorted(table.pirates)]


def _pirate(pirate: Pirate) -> dict[str, Any]:
    ship = pirate.ship
    return {
        "id": pirate.id,
        "owner": pirate.owner,
        "area": pirate.area,
        "port": pirate.port,
        "notoriety": pirate.notoriety,
        "net_worth": pirate.net_worth,
        "cunning_used": pirate.cunning_used,
        "information": {str(code): points for code, points in sorted(pirate.information.items())},
        "bribed": sorted(pirate.bribed),
        "buried_treasure": pirate.buried_treasure,
        "sack_pending": pirate.sack_pending,
        "deployed_turn": pirate.deployed_turn,
        "half_move": pirate.half_move,
        "recover_progress": pirate.recover_progress,
        "ally": pirate.ally,
        "ship": {
            "type": ship.type,
            "combat": ship.combat,
            "speed": ship.speed,
            "loyalty": ship.loyalty,
            "holds": ship.holds[:],
            "hostages": [{"id": h.id, "nation": h.nation} for h in ship.hostages],
            "attack_history": sorted(ship.attack_history),
            "letter_of_marque": ship.letter_of_marque,
            "heavy_guns": ship.heavy_guns,
            "scurvy": ship.scurvy,
            "revelry": ship.revelry,
        },
    }


def _ports(table: Table) -> list[dict[str, Any]]:
    out = []
    for code, port in table.ports.items():
        if port.governor is None and not (port.destroyed or port.attacked or port.safe_haven):
            continue
        side = DATA.governors[port.governor].side if port.governor is not None else None
        out.append(
            {
                "code": code,
                "governor": port.governor,
                "side": side,
                "destroyed": port.destroyed,
                "attacked": port.attacked,
                "safe_haven": port.safe_haven,
            }
        )
    return out


def _merchants(table: Table) -> list[Merchant]:
    return [table.merchants[code] for code in sorted(table.merchants)]


def _merchant(merchant: Merchant, everything: bool) -> dict[str, Any]:
    shown = everything or merchant.face_up
    kind = DATA.merchants[merchant.id]
    return {
        "port": merchant.port,
        "face_up": merchant.face_up,
        "located_by": merchant.located_by,
        "id": merchant.id if shown else None,
        "type": kind.id if shown else None,
        "cargo_value": kind.cargo_value if shown else None,
    }
