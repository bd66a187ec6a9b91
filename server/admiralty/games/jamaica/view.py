"""The one redaction function (`view`) and the full hidden state (`snapshot`).

`view` is the only door through which a seat sees the state (the engine contract,
`admiralty.games.base`): its own hand, chosen card and face-down treasures, and of
everyone else only what lies face up on the table [jamaica §12]. After the game every
face-down treasure is shown. Neither shows the seed; `snapshot` holds it (as the
`Chance`'s text), since the seed and the decisions fix the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from admiralty.games.base import Viewer
from admiralty.games.flow import request_json
from admiralty.games.jamaica.data import load

if TYPE_CHECKING:
    from admiralty.games.jamaica.ships import Ship
    from admiralty.games.jamaica.state import JamaicaState

DATA = load()

__all__ = ["request_json", "snapshot", "view"]
"""`request_json` is the kit's (`admiralty.games.flow`), re-exported for the tests."""


def view(state: JamaicaState, viewer: Viewer) -> dict[str, Any]:
    over = state.phase == "game_over"
    outcome = state.outcome()
    return {
        "game": "jamaica",
        "viewer": viewer,
        "round": state.round,
        "captain": state.captain,
        "phase": state.phase,
        "active": state.active,
        "dice": {
            "rolled": list(state.rolled) if state.rolled else None,
            "morning": state.morning,
            "evening": state.evening,
        },
        "bank": dict(state.bank),
        "lairs_with_treasure": sorted(state.lairs),
        "treasure_deck": len(state.treasure_deck),
        "players": [_player(state, seat, seat == viewer, over) for seat in range(state.players)],
        "ghost": _ghost(state, over) if state.ghost is not None else None,
        "combat": state.combat.to_json() if state.combat is not None else None,
        "options": dict(state.options),
        "outcome": {
            "places": list(outcome.places),
            "scores": list(outcome.scores),
            "reason": state.end_reason,
        }
        if outcome
        else None,
    }


def _player(state: JamaicaState, seat: int, own: bool, over: bool) -> dict[str, Any]:
    """One seat as its owner or a stranger sees it; treasures are shown to all at the end."""
    ship = state.ships[seat]
    known = own or over
    return {
        "seat": seat,
        **_position(state, ship),
        "face_down_treasures": len(ship.hidden),
        "treasures": state.treasure_values(ship) if known else None,
        "hand": ship.hand[:] if own else None,
        "cards_in_hand": len(ship.hand),
        "hand_limit": state.hand_limit(seat),
        "deck_size": len(ship.deck),
        "discard": ship.discard[:],
        "has_chosen": ship.chosen is not None or ship.revealed is not None,
        "chosen_card": ship.chosen if own else None,
        "revealed_card": ship.revealed,
        "score": state.score(seat, treasures=known),
    }


def _ghost(state: JamaicaState, over: bool) -> dict[str, Any]:
    ghost = state.ghost
    assert ghost is not None
    return {
        **_position(state, ghost),
        "face_down_treasures": len(ghost.hidden),
        "treasures": state.treasure_values(ghost) if over else None,
        "has_lady_beth": True,
    }


def _position(state: JamaicaState, ship: Ship) -> dict[str, Any]:
    return {
        "space": ship.space,
        "lap": ship.lap,
        "steps_left": state.board.steps_left(ship.space, ship.lap),
        "holds": ship.holds_json(DATA.holds),
        "powers": ship.powers[:],
    }


def snapshot(state: JamaicaState) -> dict[str, Any]:
    """Everything, hidden parts and the chance included: what `digest` hashes."""
    battle = state.combat
    return {
        "players": state.players,
        "options": dict(state.options),
        "chance": state.chance.snapshot(),
        "round": state.round,
        "captain": state.captain,
        "phase": state.phase,
        "active": state.active,
        "rolled": list(state.rolled) if state.rolled else None,
        "morning": state.morning,
        "evening": state.evening,
        "bank": dict(state.bank),
        "lairs": state.lairs[:],
        "treasure_deck": state.treasure_deck[:],
        "removed": state.removed[:],
        "ships": [ship.snapshot() for ship in state.ships],
        "ghost": state.ghost.snapshot() if state.ghost is not None else None,
        "half": state.half,
        "combat": {**battle.to_json(), "rerolls": battle.rerolls, "name": list(battle.name)}
        if battle
        else None,
        "flow": state.flow.snapshot(),
        "morning_hold": state.morning_hold,
        "finishers": state.finishers[:],
        "end_reason": state.end_reason,
    }
