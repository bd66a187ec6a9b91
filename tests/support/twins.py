"""Twin positions for fair-play tests: two games that one seat cannot tell apart.

A twin pair is two states that differ only in what an observer seat cannot see: other
seats' hands and face-down cards, deck orders, unbought development cards, the RNG.
Fair play means that, until the rules reveal that difference (a card turned up, a die
rolled, the end of the game), the observer's view, the public view, the events it is
told, its own requests and which seats are asked stay identical in both twins.

    twin_states(game, seed)        the two named rare cases, then random pairs (`Twins`)
    scramble(state, observer, rng) a random twin of `state` (None at an awkward moment)
    compare(twins, max_steps)      drive both twins with `twins.choose`, checking as above
    observed(state, observer)      all the observer can tell, as one JSON string

`Twins.choose(state, request) -> index` is a decision rule that makes the same public
decision in both twins: a pseudo-random option picked from the public view and the
option keys, never an option that would play or give away a hidden card (`fortune:`,
`give:`), steal one blind (`loot:blind:`) or discard one of `avoid`. A single option is
answered 0, as the referee does.

Through the referee: put `a` (then `b`) in a `Match` as its state and answer every
request with `choose(match.state, request)`. The observer's `DecideRequest`s are then
the same in both runs, byte for byte, for as long
as `Match.steps <= twins.horizon()`: the horizon is the number of answers after which
the observer still cannot tell the twins apart (the next one reveals something, or
the game is over), worked out by `compare` on clones.
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
from admiralty.games.black_fleet.scenario import arrange as fleet_arrange
from admiralty.games.chance import Chance
from admiralty.games.jamaica import JamaicaState
from admiralty.games.jamaica import arrange as jamaica_arrange
from admiralty.games.jamaica.data import load as jamaica_data
from admiralty.games.jamaica.options import options_of_hand

HIDDEN_KEYS = ("fortune:", "give:", "loot:blind:")
"""Options `choose` never takes: they play, give or blindly take a hidden card."""

REVEALS = {
    "jamaica": {"card_revealed", "round_started", "combat_roll", "cards_drawn",
                "treasure_drawn", "spoils", "game_over"},
    "black_fleet": {"movement_played", "fortune_played", "fortune_discarded",
                    "movement_drawn", "fortune_drawn", "development_bought"},
}
"""Event kinds by which the rules may reveal hidden information to a seat. The twins'
events may first differ only in the contents of one such event: an event told in one
twin but not in the other means that one was asked or did something the other did not."""


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

    def __iter__(self):
        return iter((self.a, self.b, self.observer, self.choose))

    def horizon(self, max_steps: int = 100_000) -> int:
        """How many answers (engine steps) leave the observer's information identical,
        worked out on clones; the next step reveals something, or the game is over."""
        return compare(replace(self, a=self.a.clone(), b=self.b.clone()), max_steps)


def public_choice(state: GameState, request: Request, avoid: frozenset[str] = frozenset()
                  ) -> int:
    """A pseudo-random option, the same in both twins while they look the same."""
    keys = [option.key for option in request.options]
    allowed = [i for i, key in enumerate(keys)
               if not key.startswith(HIDDEN_KEYS) and key.split(":")[-1] not in avoid]
    if len(keys) == 1 or not allowed:
        return 0
    text = _dump([state.view(None), request.seat, request.kind, [keys[i] for i in allowed]])
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return allowed[int.from_bytes(digest, "big") % len(allowed)]


def observed(state: GameState, observer: int) -> str:
    """The observer's view, the public view, its own requests (without the window id)
    and who is asked in which window, as one JSON string."""
    pending = state.pending()
    mine = [[r.kind, str(r.window), r.prompt, r.optional, r.default,
             [[o.key, o.label, dict(o.payload)] for o in r.options]]
            for r in pending if r.seat == observer]
    asked = [[r.seat, str(r.window)] for r in pending]
    return _dump({"view": state.view(observer), "public": state.view(None), "requests": mine,
                  "asked": asked})


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
        assert observed(a, observer) == observed(b, observer), (
            f"{twins.name}: seat {observer} tells the twins apart after {steps} steps")
        if a.outcome() is not None:
            return steps
        batch_a, batch_b = _window(a.pending()), _window(b.pending())
        answers_a = [twins.choose(a, request) for request in batch_a]
        answers_b = [twins.choose(b, request) for request in batch_b]
        for request_a, answer_a, request_b, answer_b in zip(
                batch_a, answers_a, batch_b, answers_b, strict=True):
            told_a = _told(a.apply(request_a.seat, answer_a), observer)
            told_b = _told(b.apply(request_b.seat, answer_b), observer)
            if told_a != told_b:
                _assert_reveal(twins, steps, told_a, told_b)
                return steps
            steps += 1
    return max_steps


def _window(pending: list[Request]) -> list[Request]:
    """The requests the referee asks at once: a whole SEALED window, else the first."""
    first = pending[0]
    if first.window is not Window.SEALED:
        return [first]
    return [r for r in pending if r.window_id == first.window_id]


def _assert_reveal(twins: Twins, steps: int, told_a: list, told_b: list) -> None:
    """The first difference must be the same kind of event, one by which rules reveal."""
    first = next(((x, y) for x, y in zip(told_a, told_b, strict=False) if x != y),
                 ({"kind": "(none)"}, {"kind": "(none)"}))
    assert first[0]["kind"] == first[1]["kind"] in REVEALS[twins.game], (
        f"{twins.name}: step {steps + 1} tells seat {twins.observer} different events "
        f"that reveal nothing: {told_a} / {told_b}")


# -- random twins -------------------------------------------------------------------------


PARTS = {"jamaica": ("hands", "decks", "treasures", "rng"),
         "black_fleet": ("hands", "decks", "development", "rng")}
"""What `scramble` can deal again: other seats' hands (and Jamaica's chosen cards),
deck orders (the observer's own too), face-down treasures (with the cards out of the
game, and with "decks" the treasure deck) or unbought development cards of other seats,
and the RNG (what is still to be drawn)."""


def scramble(state: GameState, observer: int, rng: random.Random,
             parts: tuple[str, ...] | None = None) -> GameState | None:
    """A clone of `state` with `parts` (default: all) of what `observer` cannot see dealt
    again at random; None when an open request lists cards that would change."""
    if isinstance(state, JamaicaState):
        return _scramble_jamaica(state, observer, rng, parts or PARTS["jamaica"])
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
        ship.hand, ship.deck = sorted(pool[:len(ship.hand)]), pool[len(ship.hand):]
        if seat in twin.flow.sealed:
            ask = twin.flow.sealed[seat]
            old = ask.request
            twin.flow.sealed[seat] = ask._replace(request=Request(
                seat, old.window_id, old.window, old.kind, old.prompt,
                options_of_hand(tuple(ship.hand))))
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
            pile[:], rest = rest[:len(pile)], rest[len(pile):]
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
            for hand, deck in ((player.movement, twin.movement_deck),
                               (player.fortune, twin.fortune_deck)):
                pool = hand + deck
                rng.shuffle(pool)
                hand[:], deck[:] = pool[:len(hand)], pool[len(hand):]
        if "development" in parts:
            for cost, card in list(player.development.items()):
                spare = [c for c in twin.box if development[c].cost == cost]
                if cost not in player.bought and spare:
                    swap = rng.choice(spare)
                    twin.box[twin.box.index(swap)] = card
                    player.development[cost] = swap
    twin.ask_again()  # the open request may list the active seat's cards
    return twin


def random_twins(game: str, seed: int, steps: int, players: int | None = None,
                 parts: tuple[str, ...] | None = None,
                 setup: Callable[[GameState, random.Random], None] | None = None) -> Twins:
    """A twin pair (`scramble` of `parts`) `steps` random answers into a new game, which
    `setup` may first change (e.g. with `arrange`)."""
    rng = random.Random(seed)
    players = players or rng.choice([3, 4])
    while True:  # a position before the end of the game (where everything is shown)
        state = load_game(game).new_game(players, seed)
        if setup is not None:
            setup(state, rng)
        for _ in range(steps):
            request = state.pending()[0]
            state.apply(request.seat, rng.randrange(len(request.options)))
            if state.outcome() is not None:
                break
        if state.outcome() is None:
            break
        steps //= 2
    while True:
        asked = state.pending()[0].seat
        observer = rng.choice([s for s in range(players) if s != asked])
        twin = scramble(state, observer, rng, parts)
        if twin is not None:
            name = f"{game}:random:{seed}:{steps}:{'+'.join(parts or PARTS[game])}"
            return Twins(name, game, state, twin, observer, public_choice)
        state.apply(asked, 0)


# -- the named cases -----------------------------------------------------------------------


def jamaica_opening(state: GameState, request: Request) -> int:
    """The named Jamaica cases' decisions: in round 1, dice 2 then 1 and seat 0 plays
    card 4 (forward / food), the others card 10; `public_choice` otherwise."""
    if state.round == 1:
        keys = [o.key for o in request.options]
        wanted = {"place_dice": "dice:sun=2,moon=1",
                  "choose_card": "card:10" if request.seat else "card:4"}.get(request.kind)
        if wanted in keys:
            return keys.index(wanted)
    return public_choice(state, request)


def jamaica_spoils(secret: str, seed: int = 0, winner: int = 0, players: int = 3
                   ) -> GameState:
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
    return next(card for card in [*state.removed, *state.treasure_deck]
                if kinds[card].kind == "treasure")


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
        fleet_arrange(state, seat=0, fortune={0: [card]}, ships={
            "merchant:0": (16, ["blue"] * 3), "merchant:1": (39, ["green"] * 3),
            "merchant:2": (68, ["purple"] * 3), "merchant:3": (54, ["yellow"] * 3),
            "pirate:0": "NW", "pirate:1": "NE", "pirate:2": "SW", "pirate:3": "SE"})
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
    """
    if game == "jamaica":
        attacker = jamaica_spoils("cursed_3", seed)
        defender = jamaica_spoils("cursed_2", seed, winner=1)
        named = [
            Twins("jamaica:spoils:attacker-wins", game, attacker,
                  swap_treasures(attacker, "cursed_3", ordinary(attacker)), 2, jamaica_opening),
            Twins("jamaica:spoils:defender-wins", game, defender,
                  swap_treasures(defender, "cursed_2", ordinary(defender)), 2, jamaica_opening),
        ]
    else:
        state = fleet_window(PICKPOCKET, CONTRACT, seed)
        named = [Twins("black_fleet:window:pickpocket-or-objective", game, state,
                       swap_fortune(state, PICKPOCKET, CONTRACT), 1,
                       partial(public_choice, avoid=frozenset({PICKPOCKET, CONTRACT})))]
    rng = random.Random(seed)
    randoms = [random_twins(game, rng.getrandbits(32), rng.randrange(400), parts=parts)
               for parts in (PARTS[game][:1], PARTS[game][2:3], PARTS[game])]
    return named + randoms


def _told(events, observer: int) -> list[dict[str, Any]]:
    return [event.to_json() for event in visible_events(events, observer)]


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


__all__ = ["PARTS", "REVEALS", "Twins", "compare", "fleet_window", "jamaica_opening",
           "jamaica_spoils", "observed", "ordinary", "public_choice", "random_twins", "scramble",
           "swap_fortune", "swap_treasures", "twin_states"]
