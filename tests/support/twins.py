"""Twin positions for fair-play tests: two games that one seat cannot tell apart.

A twin pair is two states that differ only in what an observer seat cannot see: other
seats' hands and face-down cards, deck orders, unbought development cards, the RNG.
Fair play means that, until the rules reveal that difference (a card turned up, a die
rolled, the end of the game), the observer's view, the public view, the events it is
told, its own requests and which seats are asked stay identical in both twins.

    twin_states(game, seed)        the named rare cases, then random pairs (`Twins`)
    scramble(state, observer, rng) a random twin of `state` (None at an awkward moment)
    compare(twins, max_steps)      drive both twins with `twins.choose`, checking as above
    observed(state, observer)      all the observer can tell, as one JSON string

`Twins.choose(state, request) -> index` is a decision rule that makes the same public
decision in both twins: a pseudo-random option picked from the public view and the
option keys, never an option that would play or give away a hidden card (`fortune:`,
`give:`), steal one blind (`loot:blind:`) or discard one of `avoid`. A single option is
answered 0, as the referee does. Blackbeard's rule (`blackbeard_choice`) cannot avoid
hidden cards, which must be played: it picks the public class of an option (play a card,
deploy a pirate, a key) publicly and the card itself by hash, which the rules then reveal;
and a request that shows its seat a roll before any event (Cunning) counts as a reveal.

Through the referee: put `a` (then `b`) in a `Match` as its state and answer every
request with `choose(match.state, request)`. The observer's `DecideRequest`s are then
the same in both runs, byte for byte, and every seat is called alike (the same seats in
the same order, as many times), for as long as `Match.steps <= twins.horizon()`: the
horizon is the number of answers after which the observer still cannot tell the twins
apart (the next one reveals something, or the game is over), worked out by `compare` on
clones.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from admiralty.games import GameState, Request, Window, load_game, visible_events
from admiralty.games.black_fleet import arrange as fleet_arrange
from admiralty.games.blackbeard import arrange as bb_arrange
from admiralty.games.blackbeard.state import BlackbeardState
from admiralty.games.chance import Chance
from admiralty.games.flow import step
from admiralty.games.jamaica import JamaicaState
from admiralty.games.jamaica import arrange as jamaica_arrange
from admiralty.games.jamaica.data import load as jamaica_data
from admiralty.games.jamaica.options import options_of_hand

HIDDEN_KEYS = ("fortune:", "give:", "loot:blind:")
"""Options `choose` never takes: they play, give or blindly take a hidden card."""

REVEALS = {
    "jamaica": {
        "card_revealed",
        "round_started",
        "combat_roll",
        "cards_drawn",
        "treasure_drawn",
        "spoils",
        "game_over",
    },
    "black_fleet": {
        "movement_played",
        "fortune_played",
        "fortune_discarded",
        "movement_drawn",
        "fortune_drawn",
        "development_bought",
    },
    "blackbeard": set(),  # filled in below, by what a twin deals again
}
"""Event kinds by which the rules may reveal hidden information to a seat. The twins'
events may first differ only in the contents of one such event: an event told in one
twin but not in the other means that one was asked or did something the other did not."""

BB_REVEALS = {
    "hands": {
        "events_dealt",
        "pirates_dealt",
        "event_drawn",
        "pirate_drawn",
        "card_played",
        "pirate_deployed",
        "new_captain",
        "skull_and_crossbones",
        "card_used",
        "challenger",
    },
    "decks": {
        "events_dealt",
        "pirates_dealt",
        "event_drawn",
        "pirate_drawn",
        "card_played",
        "pirate_deployed",
        "new_captain",
        "skull_and_crossbones",
    },  # drawn, then played
    "merchants": {"merchant_revealed", "loot_rolled"},
    "rng": {
        "order_rolled",
        "setup_done",
        "governor_placed",
        "merchant_placed",
        "merchant_unplaced",
        "locate_rolled",
        "loot_rolled",
        "tortured",
        "ransomed",
        "repair_rolled",
        "safe_haven_price",
        "treasure_dug",
        "rerolled",
        "port_defense_rolled",
        "port_attacked",
        "port_booty",
        "sack_rolled",
        "booty_grab",
        "booty_grab_take",
        "duel",
        "retirement_price",
        "retirement_refused",
        "mutiny",
        "storm",
        "hurricane",
        "warship_patrol",
        "evasion",
        "kc_deploy_rolled",
        "kc_battle",
        "warship_battle",
        "warship_sighted",
        "kc_placed",
        "kc_port_attack",
        "kc_oust",
        "merchant_fought",
        "conspiracy_rolled",
    },
}
"""Blackbeard's revealing event kinds by what a twin deals again: a hidden card played,
drawn, dealt or deployed (a card of a deck is drawn, then played); a face-down merchant
turned up (or looted); dice and blind draws from the pools (the chance seed). A twin
reveals by its parts' kinds only (`Twins.reveals`), so that, say, a merchant's identity
in `merchant_placed` is not taken for a die roll."""
REVEALS["blackbeard"] = set().union(*BB_REVEALS.values())

REVEALING_PAIRS = {"blackbeard": {frozenset({"card_played", "turn_ended"})}}
"""Two different event kinds that may first tell the twins apart: a public decision
that one twin's hidden cards allow and the other's do not (Blackbeard: once a card was
played, whether another can be played depends on the hand [blackbeard §4.4])."""

REVEALING_ASKS = {"blackbeard": {"cunning"}}
"""Request kinds that show their seat a roll before any event tells it (Blackbeard's
Cunning re-roll names the roll [blackbeard §12.0]): the step that opened one reveals."""


@dataclass(frozen=True)
class Twins:
    """Two states `a` and `b` that `observer` cannot tell apart, and a decision rule
    `choose(state, request) -> index`. Unpacks as `a, b, observer, choose`."""

    name: str
    game: str
    a: GameState
    b: GameState
    observer: int
    choose: Callable[[GameState, Request], int]
    reveals: frozenset[str] | None = None
    """The event kinds that may reveal the difference; REVEALS[game] when None."""

    def __iter__(self):
        return iter((self.a, self.b, self.observer, self.choose))

    def horizon(self, max_steps: int = 100_000) -> int:
        """How many answers (engine steps) leave the observer's information identical,
        worked out on clones; the next step reveals something, or the game is over."""
        return compare(replace(self, a=self.a.clone(), b=self.b.clone()), max_steps)


def public_choice(state: GameState, request: Request, avoid: frozenset[str] = frozenset()) -> int:
    """A pseudo-random option, the same in both twins while they look the same."""
    keys = [option.key for option in request.options]
    allowed = [
        i
        for i, key in enumerate(keys)
        if not key.startswith(HIDDEN_KEYS) and key.split(":")[-1] not in avoid
    ]
    if len(keys) == 1 or not allowed:
        return 0
    text = _dump([state.view(None), request.seat, request.kind, [keys[i] for i in allowed]])
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return allowed[int.from_bytes(digest, "big") % len(allowed)]


BB_CLASSES = {
    "choose_card": {"card": "play", "fallback": "play"},
    "deploy_card": {"pirate": "pirate"},
    "new_captain": {"pirate": "pirate"},
    "draw_or_deploy": {"deploy": "deploy"},
}
"""Blackbeard's options that name a hidden card of their seat, by request kind and key
prefix: `blackbeard_choice` picks their class (play a card, deploy one) publicly."""


def blackbeard_choice(
    state: GameState, request: Request, avoid: frozenset[str] = frozenset()
) -> int:
    """Blackbeard's public decision rule: the class of option first (a key, or one of
    `BB_CLASSES`: play an Event card, deploy a Pirate card) from the public view, then the
    card itself, which the rules reveal; Skull and Crossbones and anti-pirate cards are
    never played (whether one can be depends on the hand). In the
    Card Play Phase the phase is ended whenever that is allowed and the public view says
    so, else a card is played if one can be. Options whose key ends in one of `avoid`
    are not taken while another is allowed."""
    keys = [option.key for option in request.options]
    if len(keys) == 1:
        return 0
    classes = BB_CLASSES.get(request.kind, {})
    kinds = [classes.get(key.split(":")[0], key) for key in keys]
    public = _dump([state.view(None), request.seat, request.kind])
    if request.kind == "choose_card":
        wanted = "end" if "end" in kinds and _hash(public) % 2 else "play"
        chosen = wanted if wanted in kinds else kinds[0]
    else:
        allowed = sorted(
            {
                kind
                for kind in kinds
                if kind != "skull"
                and not (request.kind == "anti_pirate" and kind.startswith("card:"))
            }
        )
        allowed = [k for k in allowed if k.split(":")[-1] not in avoid] or allowed
        chosen = allowed[_hash(_dump([public, allowed])) % len(allowed)]
    among = [i for i, kind in enumerate(kinds) if kind == chosen]
    return among[_hash(_dump([public, [keys[i] for i in among]])) % len(among)]


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


CHOOSERS: dict[str, Callable[[GameState, Request], int]] = {"blackbeard": blackbeard_choice}
"""The public decision rule of random twins, by game (`public_choice` otherwise)."""


def observed(state: GameState, observer: int) -> str:
    """The observer's view, the public view, its own requests (without the window id)
    and who is asked in which window, as one JSON string."""
    return _dump(_observation(state, observer))


def _observation(state: GameState, observer: int) -> dict[str, Any]:
    pending = state.pending()
    mine = [
        [
            r.kind,
            str(r.window),
            r.prompt,
            r.optional,
            r.default,
            [[o.key, o.label, dict(o.payload)] for o in r.options],
        ]
        for r in pending
        if r.seat == observer
    ]
    asked = [[r.seat, str(r.window)] for r in pending]
    return {
        "view": state.view(observer),
        "public": state.view(None),
        "requests": mine,
        "asked": asked,
    }


def compare(twins: Twins, max_steps: int) -> int:
    """Answer both twins' windows with `twins.choose` as the referee does (a SEALED window
    wholly chosen before any answer is applied, otherwise the first request) until the
    observer is told something that differs (a reveal), the game ends or `max_steps`;
    returns the answers applied before that.

    Raises AssertionError if the observer could tell the twins apart without a reveal.
    """
    a, b, observer = twins.a, twins.b, twins.observer
    steps = 0
    while steps < max_steps:
        if steps and _revealing_ask(twins):
            return steps - 1
        assert observed(a, observer) == observed(b, observer), (
            f"{twins.name}: seat {observer} tells the twins apart after {steps} steps"
        )
        if a.outcome() is not None:
            return steps
        batch_a, batch_b = _window(a.pending()), _window(b.pending())
        answers_a = [twins.choose(a, request) for request in batch_a]
        answers_b = [twins.choose(b, request) for request in batch_b]
        for request_a, answer_a, request_b, answer_b in zip(
            batch_a, answers_a, batch_b, answers_b, strict=True
        ):
            told_a = _told(a.apply(request_a.seat, answer_a), observer)
            told_b = _told(b.apply(request_b.seat, answer_b), observer)
            if told_a != told_b:
                _assert_reveal(twins, steps, told_a, told_b)
                return steps
            steps += 1
    return max_steps


def _revealing_ask(twins: Twins) -> bool:
    """Whether only the observer's own requests differ, one of them of a kind that shows
    its seat a roll (`REVEALING_ASKS`)."""
    kinds = REVEALING_ASKS.get(twins.game)
    if not kinds:
        return False
    seen = [_observation(state, twins.observer) for state in (twins.a, twins.b)]
    mine = [request for view in seen for request in view.pop("requests")]
    return (
        seen[0] == seen[1]
        and any(request[0] in kinds for request in mine)
        and observed(twins.a, twins.observer) != observed(twins.b, twins.observer)
    )


def _window(pending: list[Request]) -> list[Request]:
    """The requests the referee asks at once: a whole SEALED window, else the first."""
    first = pending[0]
    if first.window is not Window.SEALED:
        return [first]
    return [r for r in pending if r.window_id == first.window_id]


def _assert_reveal(twins: Twins, steps: int, told_a: list, told_b: list) -> None:
    """The first difference must be the same kind of event, one by which rules reveal."""
    first = next(
        ((x, y) for x, y in zip(told_a, told_b, strict=False) if x != y),
        ({"kind": "(none)"}, {"kind": "(none)"}),
    )
    kinds = frozenset({first[0]["kind"], first[1]["kind"]})
    if kinds in REVEALING_PAIRS.get(twins.game, ()):
        return
    reveals = twins.reveals if twins.reveals is not None else REVEALS[twins.game]
    assert first[0]["kind"] == first[1]["kind"] in reveals, (
        f"{twins.name}: step {steps + 1} tells seat {twins.observer} different events "
        f"that reveal nothing: {told_a} / {told_b}"
    )


# -- random twins -------------------------------------------------------------------------


PARTS = {
    "jamaica": ("hands", "decks", "treasures", "rng"),
    "black_fleet": ("hands", "decks", "development", "rng"),
    "blackbeard": ("hands", "decks", "merchants", "rng"),
}
"""What `scramble` can deal again: other seats' hands (and Jamaica's chosen cards;
Blackbeard's Event and undeployed Pirate cards), deck orders (the observer's own too),
face-down treasures (with the cards out of the game, and with "decks" the treasure deck)
or unbought development cards of other seats, Blackbeard's face-down merchants (with the
merchant pool), and the RNG (what is still to be drawn, the blind draws from pools
included)."""


def scramble(
    state: GameState, observer: int, rng: random.Random, parts: tuple[str, ...] | None = None
) -> GameState | None:
    """A clone of `state` with `parts` (default: all) of what `observer` cannot see dealt
    again at random; None when an open request lists cards that would change."""
    if isinstance(state, JamaicaState):
        return _scramble_jamaica(state, observer, rng, parts or PARTS["jamaica"])
    if isinstance(state, BlackbeardState):
        return _scramble_blackbeard(state, observer, rng, parts or PARTS["blackbeard"])
    return _scramble_fleet(state, observer, rng, parts or PARTS["black_fleet"])


def _scramble_jamaica(state, observer, rng, parts):
    asked = state.flow.asked
    if "treasures" in parts and asked is not None and asked.request.kind == "loot":
        return None  # its `give:` options name the winner's face-down cards
    twin = state.clone()
    if "rng" in parts:
        twin.chance = Chance(rng.getrandbits(128))
    for seat, ship in enumerate(twin.ships):
        if "decks" in parts:
            rng.shuffle(ship.deck)  # hidden from its owner too [jamaica §12]
        if seat == observer or "hands" not in parts:
            continue
        pool = ship.hand + ship.deck + ([ship.chosen] if ship.chosen is not None else [])
        rng.shuffle(pool)
        if ship.chosen is not None:
            ship.chosen = pool.pop()
        ship.hand, ship.deck = sorted(pool[: len(ship.hand)]), pool[len(ship.hand) :]
        if seat in twin.flow.sealed:
            old = twin.flow.sealed[seat]
            twin.flow.sealed[seat] = Request(
                seat,
                old.window_id,
                old.window,
                old.kind,
                old.prompt,
                options_of_hand(tuple(ship.hand)),
            )
    if "treasures" in parts:  # (with "decks", the treasure deck's too)
        treasures = jamaica_data().treasures
        holders = [ship for seat, ship in enumerate(twin.ships) if seat != observer]
        others = [twin.removed, *([twin.treasure_deck] if "decks" in parts else [])]
        if twin.ghost is not None:
            others.append(twin.ghost.hidden)
        pool = [c for ship in holders for c in ship.hidden] + [c for p in others for c in p]
        rng.shuffle(pool)
        face_down = [card for card in pool if treasures[card].kind != "power"]
        for ship in holders:  # a player's face-down cards are never powers
            count = len(ship.hidden)
            ship.hidden[:], face_down = face_down[:count], face_down[count:]
        taken = {card for ship in holders for card in ship.hidden}
        rest = [card for card in pool if card not in taken]
        for pile in others:
            pile[:], rest = rest[: len(pile)], rest[len(pile) :]
    return twin


def _scramble_fleet(state, observer, rng, parts):
    twin = state.clone()
    if "rng" in parts:
        twin.chance = Chance(rng.getrandbits(128))
    if "decks" in parts:
        rng.shuffle(twin.movement_deck)
        rng.shuffle(twin.fortune_deck)
    development = twin.data.development
    for player in twin.seats:
        if player.seat == observer:
            continue
        if "hands" in parts:
            for hand, deck in (
                (player.movement, twin.movement_deck),
                (player.fortune, twin.fortune_deck),
            ):
                pool = hand + deck
                rng.shuffle(pool)
                hand[:], deck[:] = pool[: len(hand)], pool[len(hand) :]
        if "development" in parts:
            for cost, card in list(player.development.items()):
                spare = [c for c in twin.box if development[c].cost == cost]
                if cost not in player.bought and spare:
                    swap = rng.choice(spare)
                    twin.box[twin.box.index(swap)] = card
                    player.development[cost] = swap
    twin.ask_again()  # the open request may list the active seat's cards
    return twin


BB_REOPEN = {"choose_card", "skull_and_crossbones", "deploy_card", "draw_or_deploy"}
"""Blackbeard's requests that list their seat's hidden cards and that `scramble` opens
again from the changed hand, as the step that opened them would."""
BB_PINNED = {"use_card", "deploy_area", "deploy_ship", "deploy_drawn"}
"""Blackbeard's requests whose answer goes on with one card of the hand (chosen or drawn):
that card stays in the hand, the rest is dealt again."""


def _scramble_blackbeard(state, observer, rng, parts):
    asked = state.flow.asked
    kind = asked.request.kind if asked is not None else None
    other = asked is not None and asked.request.seat != observer
    if "hands" in parts and other and kind == "new_captain":
        return None  # lists the seat's Pirate cards; nothing opens it again
    twin = state.clone()
    table = twin.table
    if "rng" in parts:
        twin.chance = Chance(rng.getrandbits(128))
    if "decks" in parts:  # hidden from their holders too
        rng.shuffle(table.event_deck)
        rng.shuffle(table.pirate_deck)
    if "hands" in parts:
        pinned = {}
        if other and kind in BB_PINNED:
            then = asked.then
            pinned = {
                asked.request.seat: [
                    a for a in then[1] if isinstance(a, int | str) and not isinstance(a, bool)
                ]
            }
        _deal_blackbeard(twin, observer, rng, pinned)
    if "merchants" in parts:  # face down: type and Cargo Value unknown to everyone
        face_down = [m for m in table.merchants.values() if not m.face_up]
        pool = [m.id for m in face_down] + table.merchant_pool
        rng.shuffle(pool)
        for merchant in face_down:
            merchant.id = pool.pop()
        table.merchant_pool[:] = sorted(pool)
    if "hands" in parts and other and kind in BB_REOPEN:
        _reopen_blackbeard(twin, asked)
    return twin


def _deal_blackbeard(twin, observer, rng, pinned):
    """Other seats' Event cards (never a Must Play Immediately card, which is played when
    drawn) and undeployed Pirate cards, dealt again with the decks; `pinned` cards stay."""
    table = twin.table
    seats = [p for p in table.seats if p.seat != observer]
    mpi = {c for c, card in table.deck_cards.items() if card.cls == "MPI"}

    def keep(player, hand):
        held = list(pinned.get(player.seat, ()))
        return [c for c in hand if c in held and not held.remove(c)]

    for attr, deck in (("events", table.event_deck), ("pirate_cards", table.pirate_deck)):
        kept = {p.seat: keep(p, getattr(p, attr)) for p in seats}
        pool = [c for p in seats for c in getattr(p, attr)] + deck
        for cards in kept.values():
            for card in cards:
                pool.remove(card)
        rng.shuffle(pool)
        dealable = [c for c in pool if c not in mpi]
        for player in seats:
            count = len(getattr(player, attr)) - len(kept[player.seat])
            hand, dealable = dealable[:count], dealable[count:]
            for card in hand:
                pool.remove(card)
            setattr(player, attr, sorted(kept[player.seat] + hand))
        deck[:] = pool


def _reopen_blackbeard(twin, asked):
    """Open the request again, with its window id, from the dealt hand."""
    request, then = asked.request, asked.then
    twin.flow.withdraw()
    if request.kind == "choose_card":
        pass  # the phase's next frame, `_card_phase`, is on top of the stack
    elif request.kind == "skull_and_crossbones":
        twin.flow.push(step(twin.rolls._rp_skull, *then[1]))
    elif request.kind == "deploy_card":
        twin.flow.push(step(twin.setup._deploy_ask, request.seat, 2 if request.optional else 1))
    else:  # draw_or_deploy
        twin.actions.action_k(request.seat)
    twin.flow.run()


def random_twins(
    game: str,
    seed: int,
    steps: int,
    players: int | None = None,
    parts: tuple[str, ...] | None = None,
    setup: Callable[[GameState, random.Random], None] | None = None,
) -> Twins:
    """A twin pair (`scramble` of `parts`) `steps` random answers into a new game, which
    `setup` may first change (e.g. with `arrange`)."""
    rng = random.Random(seed)
    players = players or rng.choice([3, 4])
    state, steps = _before_the_end(game, players, seed, steps, rng, setup)
    while True:
        asked = state.pending()[0].seat
        observer = rng.choice([s for s in range(players) if s != asked])
        twin = scramble(state, observer, rng, parts)
        if twin is not None:
            name = f"{game}:random:{seed}:{steps}:{'+'.join(parts or PARTS[game])}"
            return Twins(name, game, state, twin, observer, CHOOSERS.get(game, public_choice))
        state.apply(asked, 0)


# -- the named cases -----------------------------------------------------------------------


def jamaica_opening(state: GameState, request: Request) -> int:
    """The named Jamaica cases' decisions: in round 1, dice 2 then 1 and seat 0 plays
    card 4 (forward / food), the others card 10; `public_choice` otherwise."""
    if state.round == 1:
        keys = [o.key for o in request.options]
        wanted = {
            "place_dice": "dice:sun=2,moon=1",
            "choose_card": "card:10" if request.seat else "card:4",
        }.get(request.kind)
        if wanted in keys:
            return keys.index(wanted)
    return public_choice(state, request)


def jamaica_spoils(secret: str, seed: int = 0, winner: int = 0, players: int = 3) -> GameState:
    """Seat 0, the Captain, will sail from 16 onto seat 1 at 18 and fight (`jamaica_opening`)
    in the first game from `seed` on in which `winner` wins. The winner holds one face-down
    treasure, `secret`; the loser has nothing to take ([jamaica §7] C9, [jamaica §12])."""
    for tried in range(seed, seed + 1000):
        state = load_game("jamaica").new_game(players, tried)
        jamaica_arrange.captain(state, 0, dice=(2, 1))
        jamaica_arrange.place(state, 0, 16)
        jamaica_arrange.place(state, 1, 18)
        jamaica_arrange.holds(state, winner, [("food", 3), ("gold", 3), None, None, None])
        jamaica_arrange.holds(state, 1 - winner, [None] * 5)
        for seat in range(players):
            card, hand = (10 if seat else 4), state.ships[seat].hand
            jamaica_arrange.hand(state, seat, [card, *[c for c in hand if c != card][:2]])
        jamaica_arrange.treasure(state, winner, secret)
        probe = state.clone()
        for _ in range(50):
            request = probe.pending()[0]
            events = probe.apply(request.seat, jamaica_opening(probe, request))
            result = [e.data for e in events if e.kind == "combat_result"]
            if result:
                if result[0]["winner"] == winner:
                    return state
                break
    raise AssertionError(f"no game from seed {seed} on where seat {winner} wins the fight")


def ordinary(state: GameState) -> str:
    """A scoring treasure nobody holds, out of the game if possible, else drawn last."""
    kinds = jamaica_data().treasures
    return next(
        card for card in [*state.removed, *state.treasure_deck] if kinds[card].kind == "treasure"
    )


def swap_treasures(state: GameState, one: str, other: str) -> GameState:
    """A clone in which two treasure cards have traded places (face-down ones only)."""
    twin = state.clone()
    piles = [ship.hidden for ship in twin.ships] + [twin.treasure_deck, twin.removed]
    for pile in piles + ([twin.ghost.hidden] if twin.ghost is not None else []):
        pile[:] = [other if card == one else one if card == other else card for card in pile]
    return twin


def fleet_window(card: str, spare: str, seed: int = 0) -> GameState:
    """Seat 0 starts its turn holding one fortune card, `card`, in a 4-player game with
    every merchant at a port and every pirate in a distant sea; `spare` lies in the
    fortune deck (the first game from `seed` on where it does)."""
    for tried in range(seed, seed + 1000):
        state = load_game("black_fleet").new_game(4, tried)
        fleet_arrange.position(
            state,
            seat=0,
            fortune={0: [card]},
            ships={
                "merchant:0": (16, ["blue"] * 3),
                "merchant:1": (39, ["green"] * 3),
                "merchant:2": (68, ["purple"] * 3),
                "merchant:3": (54, ["yellow"] * 3),
                "pirate:0": "NW",
                "pirate:1": "NE",
                "pirate:2": "SW",
                "pirate:3": "SE",
            },
        )
        if spare in state.fortune_deck:
            return state
    raise AssertionError(f"no game from seed {seed} on with {spare} in the fortune deck")


def swap_fortune(state: GameState, one: str, other: str) -> GameState:
    """A clone in which two fortune cards in hands or the deck have traded places."""
    twin = state.clone()
    for pile in [player.fortune for player in twin.seats] + [twin.fortune_deck]:
        pile[:] = [other if card == one else one if card == other else card for card in pile]
    twin.ask_again()  # the open request may list the cards
    return twin


PICKPOCKET, CONTRACT = "F30", "F36"
"""Pickpocket may be played in W1-W3; Contract: Tortuga (unfulfilled) in no window."""


def twin_states(game: str, seed: int) -> list[Twins]:
    """The named rare cases of `game` (seed `seed`), then three random pairs: other
    hands dealt again, other face-down cards dealt again, and everything hidden.

    jamaica: a fight's winner holds a cursed or an ordinary face-down treasure and the
    loser has nothing to take ([jamaica §7] C9, [jamaica §12]); the attacker wins, or the
    defender.
    black_fleet: the active seat holds Pickpocket, playable in W1, or an unfulfilled
    objective [black_fleet §R3.1, §9].
    blackbeard: a roll point's Skull and Crossbones window, opened whether the card is
    held or not [blackbeard §R4.5]; then four random pairs (`blackbeard_twins`).
    """
    if game == "blackbeard":
        return blackbeard_twins(seed)
    if game == "jamaica":
        attacker = jamaica_spoils("cursed_3", seed)
        defender = jamaica_spoils("cursed_2", seed, winner=1)
        named = [
            Twins(
                "jamaica:spoils:attacker-wins",
                game,
                attacker,
                swap_treasures(attacker, "cursed_3", ordinary(attacker)),
                2,
                jamaica_opening,
            ),
            Twins(
                "jamaica:spoils:defender-wins",
                game,
                defender,
                swap_treasures(defender, "cursed_2", ordinary(defender)),
                2,
                jamaica_opening,
            ),
        ]
    else:
        state = fleet_window(PICKPOCKET, CONTRACT, seed)
        named = [
            Twins(
                "black_fleet:window:pickpocket-or-objective",
                game,
                state,
                swap_fortune(state, PICKPOCKET, CONTRACT),
                1,
                partial(public_choice, avoid=frozenset({PICKPOCKET, CONTRACT})),
            )
        ]
    rng = random.Random(seed)
    randoms = [
        random_twins(game, rng.getrandbits(32), rng.randrange(400), parts=parts)
        for parts in (PARTS[game][:1], PARTS[game][2:3], PARTS[game])
    ]
    return named + randoms


SKULL, AMBITION, WEAR = 19, 17, 24
"""Skull and Crossbones (its window opens at a roll point, held or not), Piratical Ambition
and Wear and Tear (cards that are not played there)."""


def blackbeard_roll_point(seed: int = 0) -> GameState:
    """In a 4-player game from `seed`, the first seat in Player Order has 2 Actions and
    Vane (Cunning 2) in a Schooner beside a face-down merchant (every other pirate is
    where `arrange.ready` put it); it holds Skull and
    Crossbones and Wear and Tear, and Piratical Ambition lies in the Event deck (the first
    game from `seed` on where it does). A roll point of his opens a window for the card
    [blackbeard §12.0, §R4.5]."""
    for tried in range(seed, seed + 1000):
        state = bb_arrange.ready(4, tried)
        seat = state.table.order[0]
        bb_arrange.pirate(state, seat, "VA", "EC", ship="schooner")
        bb_arrange.merchant(state, 32, "M23")
        bb_arrange.hand(state, seat, [SKULL, WEAR])
        bb_arrange.actions(state, seat, 2)
        if AMBITION in state.table.event_deck:
            return state
    raise AssertionError(f"no game from seed {seed} on with Piratical Ambition in the deck")


CAREENING, FAIR_WINDS, KC_SURPRISE = 2, 5, 11


def blackbeard_no_actions(seed: int = 0) -> tuple[GameState, GameState]:
    """A 4-player game from `seed` with no pirate on the map, the second seat in Player Order
    about to play cards: it holds Careening, Fair Winds (AND cards whose Events need a
    pirate), KC Surprise and Piratical Ambition (diamond cards) — no card can set Actions —
    or, in the twin, Wear and Tear instead of Careening, which can. Whether and to whom
    the Card Play Phase opens must not tell the others which [blackbeard §4.55]."""
    state = bb_arrange.ready(4, seed)
    seat = state.table.order[1]
    bb_arrange.remove_pirates(state)
    bb_arrange.hand(state, seat, [CAREENING, FAIR_WINDS, KC_SURPRISE, AMBITION])
    twin = state.clone()
    bb_arrange.hand(twin, seat, [WEAR, FAIR_WINDS, KC_SURPRISE, AMBITION])
    for position in (state, twin):
        bb_arrange.turn(position, seat)
    return state, twin


def swap_events(state: GameState, seat: int, held: int, other: int) -> GameState:
    """A clone in which `seat` holds `other` instead of `held`, which takes the place of a
    copy of `other` in the Event deck."""
    twin = state.clone()
    hand, deck = twin.table.seats[seat].events, twin.table.event_deck
    hand[hand.index(held)], deck[deck.index(other)] = other, held
    hand.sort()
    return twin


def blackbeard_locate(state: GameState, request: Request) -> int:
    """Vane locates the merchant at 32 when he can; `blackbeard_choice` otherwise."""
    keys = [option.key for option in request.options]
    for key in ("pirate:VA", "action:locate", "port:32"):
        if request.kind in ("choose_pirate", "choose_action", "locate_target") and key in keys:
            return keys.index(key)
    return blackbeard_choice(state, request)


BB_STAGES = (
    ("early", 0, 60, ("hands",), (), True),
    ("middle", 100, 250, ("merchants",), ("locate",), True),
    ("middle", 150, 300, ("decks", "rng"), (), True),
    ("late", 300, 500, PARTS["blackbeard"], (), False),
)
"""Blackbeard's random twins: where in a game (answers from its start; a 4-player game
lasts about 500), what is dealt again, what the decision rule avoids, and whether the
observer is the Pirate Player (then it is asked at once and through its turn; else it
is another seat). Face-down merchants dealt again are never located, so the pair runs
on (to the end, as a rule) through merchants drawn blind from the pool and swept back
to it."""


def blackbeard_twins(seed: int) -> list[Twins]:
    """Blackbeard: the roll point (`blackbeard_roll_point`, the acting seat holding Skull and
    Crossbones or Piratical Ambition, seen by the next seat), a Card Play Phase whose hand
    can or cannot set Actions (`blackbeard_no_actions`), then random pairs early, in
    the middle and late in 2-5 player games: other hands, face-down merchants, deck orders
    and the chance seed, then everything."""
    state = blackbeard_roll_point(seed)
    named = [
        Twins(
            "blackbeard:roll-point:skull-or-ambition",
            "blackbeard",
            state,
            swap_events(state, state.table.order[0], SKULL, AMBITION),
            state.table.order[1],
            blackbeard_locate,
            frozenset(BB_REVEALS["hands"]),
        )
    ]
    hand, other = blackbeard_no_actions(seed)
    named.append(
        Twins(
            "blackbeard:card-phase:no-card-sets-actions",
            "blackbeard",
            hand,
            other,
            hand.table.order[2],
            blackbeard_choice,
            frozenset(BB_REVEALS["hands"]),
        )
    )
    rng = random.Random(seed)
    randoms = []
    for _, low, high, parts, avoid, active in BB_STAGES:
        seed, steps, players = (
            rng.getrandbits(32),
            rng.randrange(low, high),
            rng.choice([2, 3, 4, 5]),
        )
        if active:
            twins = _active_twins(seed, steps, players, parts)
        else:
            twins = random_twins("blackbeard", seed, steps, players=players, parts=parts)
        reveals = frozenset().union(*(BB_REVEALS[part] for part in parts))
        randoms.append(
            replace(
                twins, choose=partial(blackbeard_choice, avoid=frozenset(avoid)), reveals=reveals
            )
        )
    return named + randoms


def _active_twins(seed: int, steps: int, players: int, parts: tuple[str, ...]) -> Twins:
    """As `random_twins`, the observer being the Pirate Player asked now."""
    rng = random.Random(seed)
    state, steps = _before_the_end("blackbeard", players, seed, steps, rng)
    while True:
        asked = state.pending()[0].seat
        if asked == state.table.turn.active:
            twin = scramble(state, asked, rng, parts)
            if twin is not None:
                name = f"blackbeard:active:{seed}:{steps}:{'+'.join(parts)}"
                return Twins(name, "blackbeard", state, twin, asked, blackbeard_choice)
        state.apply(asked, 0)


def _before_the_end(
    game: str,
    players: int,
    seed: int,
    steps: int,
    rng: random.Random,
    setup: Callable[[GameState, random.Random], None] | None = None,
) -> tuple[GameState, int]:
    """A new game (changed by `setup`) `steps` random answers in, halving `steps` until
    the game is not over there (at the end everything is shown); and the steps taken."""
    while True:
        state = load_game(game).new_game(players, seed)
        if setup is not None:
            setup(state, rng)
        for _ in range(steps):
            request = state.pending()[0]
            state.apply(request.seat, rng.randrange(len(request.options)))
            if state.outcome() is not None:
                break
        if state.outcome() is None:
            return state, steps
        steps //= 2


def _told(events, observer: int) -> list[dict[str, Any]]:
    return [event.to_json() for event in visible_events(events, observer)]


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


__all__ = [
    "PARTS",
    "REVEALS",
    "Twins",
    "blackbeard_choice",
    "blackbeard_locate",
    "blackbeard_roll_point",
    "blackbeard_twins",
    "compare",
    "fleet_window",
    "jamaica_opening",
    "jamaica_spoils",
    "observed",
    "ordinary",
    "public_choice",
    "random_twins",
    "scramble",
    "swap_events",
    "swap_fortune",
    "swap_treasures",
    "twin_states",
]
