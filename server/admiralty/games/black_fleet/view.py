"""The one redaction function, the full snapshot and the static info.

Everything a seat may know comes from `view` and from the events it is told: this is
the only place a Black Fleet state is redacted. What a seat may see [black_fleet §9]:
its own movement and fortune hands and its face-down development cards; of the others
only hand sizes, the costs of their face-down cards, and what they have bought. Ships,
cargo, port stocks, money (public by default [black_fleet G18]), discard piles and deck
sizes are public. Nobody sees deck order, the development cards returned to the box, or
the seed of the game's chance streams.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from admiralty.games.base import Request
    from admiralty.games.black_fleet.data import GameData
    from admiralty.games.black_fleet.pieces import Player
    from admiralty.games.black_fleet.state import BlackFleetState


def _seat_view(state: BlackFleetState, player: Player, own: bool) -> dict[str, Any]:
    development = state.data.development
    cards = []
    for cost, card_id in player.development.items():
        entry: dict[str, Any] = {"cost": cost, "bought": cost in player.bought}
        if own or entry["bought"]:
            entry.update(card=card_id, title=development[card_id].title)
        cards.append(entry)
    out: dict[str, Any] = {
        "seat": player.seat,
        "colour": player.colour,
        "money": player.money,
        "victory_cost": player.victory_cost,
        "victory_bought": player.victory_bought,
        "development": cards,
        "charter_port": player.charter_port,
        "movement_cards_held": len(player.movement),
        "fortune_cards_held": len(player.fortune),
        "fortune_limit": state.fortune_limit(player),
        "boosts": list(player.boosts),
        "merchant": player.merchant.to_json(),
        "pirate": player.pirate.to_json(),
    }
    if own:
        out["movement_hand"] = list(player.movement)
        out["fortune_hand"] = list(player.fortune)
    return out


def _outcome(state: BlackFleetState) -> dict[str, Any] | None:
    outcome = state.outcome()
    if outcome is None:
        return None
    return {
        "places": list(outcome.places),
        "scores": list(outcome.scores),
        "reason": state.ended_by,
    }


_PHASES = {"play_fortune": "window", "choose_action": "activation", "move_ship": "activation"}
"""The phase a request's kind shows, where they differ (see `phase`)."""


def phase(request: Request | None) -> str:
    """The part of the turn the game is in, named after the open `request`: its kind,
    but `window` for a fortune window, `activation` while a ship moves and acts,
    `choose_cube` for the cube Letter of Marque takes, `over` once nothing is open."""
    if request is None:
        return "over"
    kind = request.kind
    if kind == "choose_target" and request.options[0].payload["target"] == "cube":
        return "choose_cube"
    return _PHASES.get(kind, kind)


def view(state: BlackFleetState, viewer: int | None) -> dict[str, Any]:
    """Everything `viewer` may see as plain JSON data; None is the public (spectator) view."""
    board = state.data.board
    current = state.current
    asked = state.flow.asked
    request = asked.request if asked is not None else None
    shown = phase(request)
    return {
        "game": "black_fleet",
        "viewer": viewer,
        "players": state.players,
        "phase": shown,
        "window": current.window if shown == "window" else None,
        "active_seat": state.active,
        "setup_seat": request.seat if request is not None and shown == "place_merchant" else None,
        "first_seat": 0,
        "round": state.round,
        "round_cap": state.round_cap,
        "turn": state.turn,
        "final_round": state.final_round,
        "ended_by": state.ended_by,
        "outcome": _outcome(state),
        "seats": [_seat_view(state, p, p.seat == viewer) for p in state.seats],
        "navies": {colour: navy.space for colour, navy in state.navies.items()},
        "ports": [
            {
                "key": port.key,
                "colour": port.colour,
                "stock": state.stock[port.colour],
                "buys": dict(port.buys),
            }
            for port in board.ports.values()
        ],
        "decks": {
            "movement": len(state.movement_deck),
            "movement_discard": list(state.movement_discard),
            "fortune": len(state.fortune_deck),
            "fortune_discard": list(state.fortune_discard),
        },
        "current": {
            "played": current.played,
            "controlled_navies": list(current.controlled),
            "activated": list(current.activated),
            "ship": current.ship.ref if current.ship else None,
            "points": current.points if current.ship else 0,
            "actions": list(current.acts),
        },
    }


def snapshot(state: BlackFleetState) -> dict[str, Any]:
    """The whole state, hidden parts included, as JSON data (the digest's basis): the
    table, the turn so far, the flow (frames still to run and the open request) and the
    seed of the chance streams (`Chance.snapshot`)."""
    return {
        "players": state.players,
        "round_cap": state.round_cap,
        "round": state.round,
        "turn": state.turn,
        "active": state.active,
        "final_round": state.final_round,
        "ended_by": state.ended_by,
        "current": state.current.to_json(),
        "flow": state.flow.snapshot(),
        "seats": [
            {
                "colour": p.colour,
                "money": p.money,
                "victory_cost": p.victory_cost,
                "victory_bought": p.victory_bought,
                "development": {str(cost): card for cost, card in p.development.items()},
                "bought": list(p.bought),
                "charter_port": p.charter_port,
                "movement": list(p.movement),
                "fortune": list(p.fortune),
                "boosts": list(p.boosts),
                "merchant": p.merchant.to_json(),
                "pirate": p.pirate.to_json(),
            }
            for p in state.seats
        ],
        "navies": {colour: navy.space for colour, navy in state.navies.items()},
        "stock": dict(state.stock),
        "movement_deck": list(state.movement_deck),
        "movement_discard": list(state.movement_discard),
        "fortune_deck": list(state.fortune_deck),
        "fortune_discard": list(state.fortune_discard),
        "box": list(state.box),
        "shuffles": dict(state.shuffles),
        "chance": state.chance.snapshot(),
    }


def static_info(data: GameData) -> dict[str, Any]:
    """What never changes: the board, every card's text and the setup figures."""
    setup = data.setup
    return {
        "game": "black_fleet",
        "board": data.board.to_json(),
        "movement_cards": [card.to_json() for card in data.movement.values()],
        "fortune_cards": [card.to_json() for card in data.fortune.values()],
        "development_cards": [card.to_json() for card in data.development.values()],
        "rules": {
            "cubes_per_colour": setup.cubes_per_colour,
            "merchant_capacity": setup.merchant_capacity,
            "pirate_capacity": setup.pirate_capacity,
            "movement_hand": setup.movement_hand,
            "fortune_limit": setup.fortune_limit,
            "attack_reward": setup.attack_reward,
            "sink_reward": setup.sink_reward,
            "development_costs": list(setup.development_costs),
            "victory_costs": list(setup.victory_costs),
        },
    }
