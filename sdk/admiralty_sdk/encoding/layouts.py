"""Each game's layouts: the fields of a seat's view, and those of one option.

Vocabularies of the games' data (cards, ports, pirates, spaces) come from
`vocabularies.json`, written from the engines' data (`python -m
admiralty.research.encoding`); the short lists written out below (phases, request kinds,
key verbs, payload values) are those of the rules, as docs/games/<game>.md lists them.
Seats are relative: slot 0 is always the viewer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from admiralty_sdk.encoding.fields import (
    Count,
    Field,
    Keyed,
    Num,
    OneHot,
    Record,
    Rows,
    Seat,
    Tally,
    by_key,
    by_position,
    by_relative_seat,
)

VOCABULARY_FILE = Path(__file__).with_name("vocabularies.json")
VOCABULARIES: dict[str, dict[str, Any]] = json.loads(VOCABULARY_FILE.read_text())
"""Per game, its data's vocabularies by name (lists, and a few numbers)."""


def _vocab(game: str, name: str) -> tuple[Any, ...]:
    return tuple(VOCABULARIES[game][name])


# -- Jamaica ------------------------------------------------------------------------------

JAMAICA_KINDS = (
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
)
JAMAICA_VERBS = (
    "card",
    "dice",
    "empty",
    "fork",
    "ghost",
    "give",
    "gunpowder",
    "hold",
    "load",
    "loot",
    "pass",
    "pay",
    "sabre",
    "target",
)


def _jamaica() -> tuple[Field, ...]:
    v = VOCABULARIES["jamaica"]
    seats, cards, goods = v["seats"], _vocab("jamaica", "cards"), _vocab("jamaica", "goods")
    holds = Rows(
        "holds",
        tuple(range(v["holds"] + 1)),
        (OneHot("kind", goods), Num("count"), Num("sixth")),
        by_position,
    )
    ship = (
        Num("space"),
        Num("steps_left"),
        OneHot("lap", ("pre_start", "racing", "finished")),
        holds,
        Tally("powers", _vocab("jamaica", "powers")),
        Num("face_down_treasures"),
    )
    player = (
        *ship,
        Tally("treasures", _vocab("jamaica", "treasure_values")),
        Tally("hand", cards),
        Num("cards_in_hand"),
        Num("hand_limit"),
        Num("deck_size"),
        Tally("discard", cards),
        Num("has_chosen"),
        OneHot("chosen_card", cards),
        OneHot("revealed_card", cards),
        Num("score"),
    )
    stages = (
        "attacker_gunpowder",
        "attacker_roll",
        "defender_gunpowder",
        "defender_roll",
        "spoils",
        "stash",
    )
    combat: tuple[Field, ...] = (
        *(Seat(role, seats, (v["ghost"],)) for role in ("attacker", "defender", "winner")),
        OneHot("stage", stages),
        Rows("rolls", (0, 1), (OneHot("", _vocab("jamaica", "combat_die")),), by_position),
        Rows("strengths", (0, 1), (Num(""),), by_position),
        Rows("gunpowder", (0, 1), (Num(""),), by_position),
        Num("sabre_used"),
    )
    return (
        Num("round"),
        Seat("captain", seats),
        Seat("active", seats),
        OneHot("phase", ("choose_cards", "place_dice", "resolve", "ghost", "game_over")),
        Num("dice.morning"),
        Num("dice.evening"),
        Rows("dice.rolled", (0, 1), (Num(""),), by_position),
        Keyed("bank", goods, Num("")),
        Tally("lairs_with_treasure", _vocab("jamaica", "lairs")),
        Num("treasure_deck"),
        Rows("players", tuple(range(seats)), player, by_relative_seat),
        Record("ghost", ship),
        Record("combat", combat),
    )


def _jamaica_payload() -> tuple[Field, ...]:
    v = VOCABULARIES["jamaica"]
    goods, holds = _vocab("jamaica", "goods"), tuple(range(v["holds"] + 1))
    return (
        OneHot("card", _vocab("jamaica", "cards")),
        Num("morning"),
        Num("evening"),
        Num("space"),
        OneHot("branch", ("inner", "outer")),
        OneHot("direction", ("forward", "backward")),
        OneHot("loot", ("blind", "give", "hold", "none", "treasure")),
        OneHot("hold", holds),
        OneHot("kind", goods),
        Num("count"),
        Num("slot"),
        Num("amount"),
        Rows("holds", holds, (OneHot("", holds),), by_position),
        Rows("amounts", holds, (Num(""),), by_position),
        OneHot("load_kind", goods),
        Num("load_count"),
        OneHot("treasure", _vocab("jamaica", "treasures")),
        Num("value"),
        Seat("target", v["seats"], (v["ghost"],)),
        OneHot("reroll", ("own", "opponent")),
    )


# -- Black Fleet --------------------------------------------------------------------------

BLACK_FLEET_KINDS = (
    "place_merchant",
    "reenter_merchant",
    "reenter_pirate",
    "play_fortune",
    "play_movement",
    "choose_ship",
    "choose_action",
    "move_ship",
    "choose_target",
    "choose_destination",
    "discard_fortune",
    "buy",
    "name_port",
)
BLACK_FLEET_VERBS = (
    "place",
    "zone",
    "lair",
    "pass",
    "fortune",
    "swap",
    "card",
    "ship",
    "action",
    "stop",
    "move",
    "target",
    "discard",
    "buy",
    "port",
)
BLACK_FLEET_ACTIONS = ("deliver", "top_up", "attack", "attack_pirate", "sink", "bury", "broadside")


def _black_fleet() -> tuple[Field, ...]:
    v = VOCABULARIES["black_fleet"]
    seats = v["seats"]
    movement, fortune = _vocab("black_fleet", "movement"), _vocab("black_fleet", "fortune")
    goods, navies = _vocab("black_fleet", "goods"), _vocab("black_fleet", "navies")
    ports = _vocab("black_fleet", "ports")
    ship = (Num("space"), Tally("cargo", goods))
    seat = (
        Num("money"),
        Num("victory_cost"),
        Num("victory_bought"),
        Rows(
            "development",
            _vocab("black_fleet", "development_costs"),
            (Num("bought"), OneHot("card", _vocab("black_fleet", "development"))),
            by_key("cost"),
        ),
        OneHot("charter_port", ports),
        Num("movement_cards_held"),
        Num("fortune_cards_held"),
        Num("fortune_limit"),
        Tally("boosts", fortune),
        Record("merchant", ship),
        Record("pirate", (*ship, OneHot("zone", _vocab("black_fleet", "zones")))),
        Tally("movement_hand", movement),
        Tally("fortune_hand", fortune),
    )
    phases = (
        "place_merchant",
        "play_movement",
        "window",
        "activation",
        "choose_ship",
        "choose_destination",
        "choose_target",
        "choose_cube",
        "name_port",
        "buy",
        "discard_fortune",
        "reenter_merchant",
        "reenter_pirate",
        "over",
    )
    return (
        OneHot("phase", phases),
        OneHot("window", ("start", "first", "between", "last")),
        Seat("active_seat", seats),
        Seat("setup_seat", seats),
        Num("round"),
        Num("round_cap"),
        Num("turn"),
        Num("final_round"),
        Rows("seats", tuple(range(seats)), seat, by_relative_seat),
        Keyed("navies", navies, Num("")),
        Rows("ports", ports, (Num("stock"), Keyed("buys", goods, Num(""))), by_key("key")),
        Num("decks.movement"),
        Tally("decks.movement_discard", movement),
        Num("decks.fortune"),
        Tally("decks.fortune_discard", fortune),
        OneHot("current.played", movement),
        Tally("current.controlled_navies", navies),
        Count("current.activated"),
        Num("current.points"),
        Tally("current.actions", BLACK_FLEET_ACTIONS),
    )


def _black_fleet_payload() -> tuple[Field, ...]:
    v = VOCABULARIES["black_fleet"]
    cards = (*_vocab("black_fleet", "movement"), *_vocab("black_fleet", "fortune"))
    return (
        OneHot("port", _vocab("black_fleet", "ports")),
        Num("space"),
        OneHot("colour", _vocab("black_fleet", "goods")),
        OneHot("zone", _vocab("black_fleet", "zones")),
        OneHot("card", (*cards, *_vocab("black_fleet", "development"))),
        OneHot("navy", _vocab("black_fleet", "navies")),
        Num("navy_move"),
        Num("pirate"),
        Num("merchant"),
        OneHot("fortune", ("none", "draw1", "draw2", "discard1")),
        OneHot("ship", ("merchant", "pirate", "navy")),
        OneHot("action", BLACK_FLEET_ACTIONS),
        Seat("seat", v["seats"]),
        Num("steps"),
        OneHot("target", ("seat", "merchant", "pirate", "navy", "lair", "cube")),
        OneHot("buy", ("none", "development", "victory")),
        Num("cost"),
    )


# -- Blackbeard ---------------------------------------------------------------------------

BLACKBEARD_KINDS = (
    "draft_pick",
    "deploy_card",
    "deploy_area",
    "deploy_ship",
    "deploy_areas",
    "choose_card",
    "use_card",
    "diamond_pirate",
    "choose_pirate",
    "choose_action",
    "move_to",
    "locate_target",
    "loot_target",
    "attack_target",
    "grab_target",
    "ally_target",
    "alliance_hit",
    "share_hold",
    "bermuda_area",
    "retire",
    "anti_pirate",
    "kc_attack",
    "warship_attack",
    "kc_surrender",
    "sighting_attack",
    "sighting_keep",
    "challenger",
    "loot_keep",
    "cargo_hold",
    "dump_cargo",
    "hostage_fate",
    "revelry",
    "ransom_hold",
    "cash_holds",
    "repair_share",
    "repair_split",
    "pay_safe_haven",
    "safe_haven",
    "hold_order",
    "spoils",
    "spoil_hold",
    "draw_or_deploy",
    "deploy_drawn",
    "event_pirate",
    "event_port",
    "fair_winds_step",
    "lom_nation",
    "new_captain",
    "cunning",
    "skull_and_crossbones",
    "attack_hold",
    "ransom",
    "duel_again",
    "spoil_item",
    "grab_hold",
    "treasure_hold",
    "pay_retirement",
)
BLACKBEARD_VERBS = (
    "accept",
    "action",
    "ally",
    "area",
    "areas",
    "attack",
    "card",
    "cash",
    "convert",
    "decline",
    "deploy",
    "dig",
    "dissolve",
    "draw",
    "dump",
    "end",
    "evade",
    "fallback",
    "fight",
    "grab",
    "hold",
    "in_port",
    "k",
    "kc",
    "kc_deploy",
    "kc_move",
    "kc_oust",
    "kc_port",
    "keep",
    "keep_new",
    "keep_old",
    "leave",
    "locate",
    "loot",
    "move",
    "nation",
    "no",
    "order",
    "pass",
    "patrol",
    "pay",
    "pirate",
    "port",
    "ransom",
    "react",
    "recover",
    "redraw",
    "repair",
    "reroll",
    "retire",
    "sack",
    "ship",
    "skip",
    "skull",
    "stop",
    "surrender",
    "swap",
    "take",
    "torture",
    "transit",
    "use",
    "yes",
)
BLACKBEARD_ACTIONS = (
    "move",
    "locate",
    "loot",
    "in_port",
    "grab",
    "recover",
    "attack",
    "sack",
    "ally",
    "retire",
    "dig",
    "k",
)
BLACKBEARD_ACTS = (
    "card",
    "react",
    "kc_deploy",
    "patrol",
    "kc_move",
    "kc_port",
    "kc_oust",
    "evade",
    "fight",
    "surrender",
    "attack",
    "keep_old",
    "keep_new",
)


def _places() -> tuple[Any, ...]:
    return (*_vocab("blackbeard", "areas"), *_vocab("blackbeard", "transits"))


def _blackbeard() -> tuple[Field, ...]:
    v = VOCABULARIES["blackbeard"]
    seats, places = v["seats"], _places()
    pirates, events, ports = (_vocab("blackbeard", n) for n in ("pirates", "events", "ports"))
    nations, kcs = _vocab("blackbeard", "nations"), _vocab("blackbeard", "kcs")
    governors, warships = _vocab("blackbeard", "governors"), _vocab("blackbeard", "warships")
    ship = (
        OneHot("type", _vocab("blackbeard", "ship_types")),
        Num("combat"),
        Num("speed"),
        Num("loyalty"),
        Rows("holds", tuple(range(4)), (Num("", 100),), by_position),
        Count("hostages"),
        Tally("attack_history", nations),
        OneHot("letter_of_marque", nations),
        Num("heavy_guns"),
        Num("scurvy"),
        OneHot("revelry", ("voluntary", "involuntary")),
    )
    pirate = (
        Seat("owner", seats),
        OneHot("area", places),
        OneHot("port", ports),
        Num("notoriety"),
        Num("net_worth", 100),
        Num("cunning_used"),
        Keyed("information", tuple(str(code) for code in ports), Num("")),
        Tally("bribed", governors),
        Num("buried_treasure"),
        OneHot("sack_pending", ports),
        Num("deployed_turn"),
        Num("recover_progress"),
        Record("ship", ship),
    )
    player = (
        Num("vp"),
        Num("vp_from_net_worth"),
        Tally("retired", pirates),
        Tally("eliminated", pirates),
        Num("best_notoriety"),
        Num("event_cards"),
        Num("pirate_cards"),
        Tally("hand", events),
        Tally("pirate_hand", pirates),
    )
    port = (
        OneHot("governor", governors),
        OneHot("side", ("pro", "anti")),
        Num("destroyed"),
        Num("attacked"),
        OneHot("safe_haven", pirates),
    )
    merchant = (
        Num("face_up"),
        OneHot("located_by", pirates),
        OneHot("id", _vocab("blackbeard", "merchants")),
        OneHot("type", _vocab("blackbeard", "merchant_types")),
        Num("cargo_value"),
    )
    interference = (
        Num("kc_action"),
        Num("warship"),
        Num("kc_deploy"),
        Num("reaction"),
        Num("cancelled"),
        OneHot("action", ("move", "attack", "in_port", "locate", "sack", "recover", "retire", "k")),
        OneHot("entering", places),
        OneHot("surprise", kcs),
        OneHot("sighted", warships),
        Tally("titles", _vocab("blackbeard", "event_titles")),
        Tally("revelry", pirates),
    )
    return (
        Num("turn"),
        Seat("active", seats),
        OneHot("phase", ("setup", "merchants", "draw", "cards", "turn_end", "over")),
        Rows("order", tuple(range(seats)), (Seat("", seats),), by_position),
        OneHot("active_pirate", pirates),
        Num("actions_left"),
        OneHot("actions_pirate", pirates),
        Num("action_number"),
        Rows("players", tuple(range(seats)), player, by_relative_seat),
        Rows("pirates", pirates, pirate, by_key("id")),
        Rows("ports", ports, port, by_key("code")),
        Rows("merchants", ports, merchant, by_key("port")),
        Keyed("patrols", _vocab("blackbeard", "areas"), OneHot("", warships)),
        Rows("kcs", kcs, (Seat("owner", seats), OneHot("area", places)), by_key("id")),
        Tally("kcs_killed", kcs),
        Record("interference", interference),
        *(
            Num(f"pools.{pool}")
            for pool in ("merchants", "hostages", "warships", "kcs", "anti_governors")
        ),
        Num("event_deck"),
        Tally("discard", events),
        Num("held_out"),
        Num("pirate_deck"),
        Tally("retired", pirates),
        Tally("dead", pirates),
        Num("pardons"),
        Num("pardon_in_force"),
    )


def _blackbeard_payload() -> tuple[Field, ...]:
    places, ports = _places(), _vocab("blackbeard", "ports")
    pirates = _vocab("blackbeard", "pirates")
    return (
        OneHot("pirate", pirates),
        OneHot("area", places),
        OneHot("ship", _vocab("blackbeard", "ship_types")),
        OneHot("card", _vocab("blackbeard", "events")),
        OneHot("use", ("actions", "event", "event_and_action")),
        OneHot("action", BLACKBEARD_ACTIONS),
        OneHot("target", (*ports, *pirates, *places, "A", "B", "C", "D1", "D2")),
        OneHot("kind", ("area", "transit", "port")),
        OneHot("act", BLACKBEARD_ACTS),
        OneHot("port", ports),
        OneHot("kc", _vocab("blackbeard", "kcs")),
        OneHot("hold", tuple(range(4))),
        OneHot("dump", tuple(range(4))),
        Tally("holds", tuple(range(4))),
        Num("keep"),
        Num("yes"),
        Num("reroll"),
        Num("draw"),
        Num("deploy"),
        Num("play"),
        Num("speed"),
    )


LAYOUTS: dict[str, Callable[[], tuple[Field, ...]]] = {
    "jamaica": _jamaica,
    "black_fleet": _black_fleet,
    "blackbeard": _blackbeard,
}
"""Each game's view layout, built on first use."""

OPTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...], Callable[[], tuple[Field, ...]]]] = {
    "jamaica": (JAMAICA_KINDS, JAMAICA_VERBS, _jamaica_payload),
    "black_fleet": (BLACK_FLEET_KINDS, BLACK_FLEET_VERBS, _black_fleet_payload),
    "blackbeard": (BLACKBEARD_KINDS, BLACKBEARD_VERBS, _blackbeard_payload),
}
"""Each game's request kinds, option key verbs and payload layout."""

ACTION_BOUNDS = {"jamaica": 144, "black_fleet": 87, "blackbeard": 64}
"""The size of each game's discrete action space, at least the options of any request
(how each is worked out: docs/research.md, "Action spaces")."""


@cache
def layout(game: str) -> tuple[Field, ...]:
    """The fields of `game`'s view encoding, in order."""
    return LAYOUTS[game]()


@cache
def payload_layout(game: str) -> tuple[Field, ...]:
    return OPTIONS[game][2]()
