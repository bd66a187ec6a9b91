"""The engine contract as Jamaica fills it: views, requests and options (docs/architecture.md);
tests/contract checks what every game shares."""

from __future__ import annotations

import json
import random
from collections import defaultdict

from admiralty.games import Window
from admiralty.games.jamaica import Jamaica

VIEW_KEYS = {
    "game",
    "viewer",
    "round",
    "captain",
    "phase",
    "active",
    "dice",
    "bank",
    "lairs_with_treasure",
    "treasure_deck",
    "players",
    "ghost",
    "combat",
}
PLAYER_KEYS = {
    "seat",
    "space",
    "lap",
    "holds",
    "powers",
    "face_down_treasures",
    "treasures",
    "hand",
    "cards_in_hand",
    "deck_size",
    "discard",
    "has_chosen",
    "revealed_card",
    "score",
}
KINDS = {
    "place_dice",
    "choose_card",
    "load",
    "stash",
    "fork",
    "pay",
    "target",
    "gunpowder",
    "sabre",
    "loot",
    "ghost_direction",
}


def games(players_seeds):
    """(state, request) at every decision of random games."""
    for players, seed in players_seeds:
        state = Jamaica().new_game(players, seed)
        chooser = random.Random(seed)
        while state.outcome() is None:
            pending = state.pending()
            for request in pending:
                yield state, request
            request = chooser.choice(pending)
            state.apply(request.seat, chooser.randrange(len(request.options)))
        yield state, None


SAMPLE = [(p, s) for p in range(2, 7) for s in range(3)]


def test_the_view_has_the_agreed_shape_and_is_plain_json():
    """The view's top-level names are fixed for the protobuf layer (see docs)."""
    for state, request in games(SAMPLE[:5]):
        if request is not None and request.kind != "loot":
            continue
        for viewer in [None, *range(state.players)]:
            view = json.loads(json.dumps(state.view(viewer)))
            assert set(view) >= VIEW_KEYS and view["game"] == "jamaica"
            assert view["viewer"] == viewer
            assert set(view["dice"]) == {"rolled", "morning", "evening"}
            assert set(view["bank"]) == {"gold", "food", "gunpowder"}
            for player in view["players"]:
                assert set(player) >= PLAYER_KEYS
                assert (player["hand"] is not None) == (player["seat"] == viewer)
                for hold in player["holds"]:
                    assert set(hold) == {"kind", "count", "sixth"}
            assert (view["ghost"] is not None) == (state.players == 2)


def defends(state, request):
    """Whether `request` asks for the defender's side of a battle ([jamaica §11] I-2 to I-5)."""
    combat = state.combat
    if combat is None:
        return False
    defender = combat.ships[1]
    if request.kind == "sabre":
        return request.seat == defender
    if request.kind == "gunpowder":
        return combat.stage == "defender_gunpowder"
    return request.kind in {"loot", "stash"} and combat.winner == defender


def test_requests_follow_the_window_rules():
    """[jamaica §11] and the engine contract: TURN for the active player, INTERRUPT for another or
    for a defender's answer (even the active Captain's in the Ghost phase), SEALED shared; a window
    id grows whenever a new window opens; PASS is option 0 when optional."""
    last_id, seen_kinds = 0, set()
    for state, request in games(SAMPLE):
        if request is None:
            last_id = 0
            continue
        seen_kinds.add(request.kind)
        assert request.kind in KINDS and request.prompt
        assert request.window_id >= last_id
        last_id = request.window_id
        if request.window == Window.SEALED:
            assert request.kind == "choose_card" and state.active is None
        elif request.window == Window.TURN:
            assert request.seat == state.active and not defends(state, request)
        else:
            assert request.window == Window.INTERRUPT
            assert request.seat != state.active or defends(state, request)
        assert request.optional == (request.options[0].key == "pass")
        keys = [option.key for option in request.options]
        assert len(set(keys)) == len(keys)
    assert seen_kinds >= KINDS - {"target", "stash"}


def test_payloads_are_flat_and_keep_one_set_of_fields_per_kind():
    """The wire maps payloads to typed messages: flat JSON, the same fields per kind."""
    fields = defaultdict(set)
    for _, request in games(SAMPLE):
        if request is None:
            continue
        for option in request.options:
            payload = dict(option.payload)
            for value in payload.values():
                assert (
                    value is None
                    or isinstance(value, int | str | bool)
                    or (isinstance(value, list) and all(isinstance(v, int) for v in value))
                )
            name = request.kind if request.kind != "loot" else f"loot:{payload['loot']}"
            if option.key != "pass":
                fields[name].add(tuple(sorted(payload)))
    assert {name: len(variants) for name, variants in fields.items() if len(variants) > 1} == {}
    assert fields["place_dice"] == {("evening", "morning")}
    assert fields["choose_card"] == {("card",)}
    assert fields["loot:hold"] == {("count", "hold", "kind", "loot")}
