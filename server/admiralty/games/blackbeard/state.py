"""A game of Blackbeard in progress: the flow of setup, the Player Turn and card play.

`BlackbeardState` is the table (`table.Table`) run by one `Flow` of decisions. This module
is the flow: setup [blackbeard §3.0], the Player Turn's phases [blackbeard §4.3, §4.4], the
Card Play Phase and its Actions cards [blackbeard §4.5], the windows around each Pirate
Action (`_offer_ap`, the one place where the anti-pirate acts will be offered), mutiny
[blackbeard §14.12] and the end [blackbeard §R18.5]. The Actions themselves are in
`actions`, the Event cards in `cards`. Alone (solitaire), the Crown of `crown` takes the
other players' place: it has a Threat Row, a Crown Phase after each Player Turn, a moment
after the turn's Actions card, and the game is won against a VP target [blackbeard §R19].

Every step is a `Step` frame naming a method; a method finishes, pushes the frames that
follow it or opens a request, whose answer calls the continuation it names with the chosen
`Option`. Frames hold plain data, so a state copies with list slices and snapshots to JSON.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache, lru_cache
from itertools import product
from typing import Any

from admiralty.games.base import GameState, Option, Outcome, Request, Viewer, Window
from admiralty.games.blackbeard import determinize
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard import view as views
from admiralty.games.blackbeard.antipirate import Interference
from admiralty.games.blackbeard.choices import END, PASS, STOP, opt
from admiralty.games.blackbeard.crown import Crown
from admiralty.games.blackbeard.data import DIAMOND
from admiralty.games.blackbeard.pieces import (
    Commissioner,
    Hostage,
    Merchant,
    Pirate,
    PortState,
    Ship,
)
from admiralty.games.blackbeard.table import DATA
from admiralty.games.chance import Chance
from admiralty.games.flow import Flow, Poll, Step, step
from admiralty.games.flow import apply as flow_apply

TURN, INTERRUPT, SETUP = Window.TURN, Window.INTERRUPT, Window.SETUP
SHIPS = tuple(kind.id for kind in DATA.ship_types.values() if kind.start)
AREAS = tuple(DATA.areas)
BERMUDA = next(port.areas for port in DATA.ports.values() if len(port.areas) > 1)
"""Bermuda's two sea areas, North Atlantic first [blackbeard §2.2]."""
NO_WINDOWS = frozenset({"retire"})
"""Actions with no T-END window: the pirate leaves play [blackbeard §R18.41]."""


@cache
def card_option(card: int) -> Option:
    title = DATA.events[card].title
    return Option(f"card:{card}", title, {"card": card})


@cache
def fallback_option(card: int) -> Option:
    return Option(f"fallback:{card}", f"discard {DATA.events[card].title} for 1 Action",
                  {"card": card})


@cache
def pirate_option(pirate: str) -> Option:
    return Option(f"pirate:{pirate}", DATA.pirates[pirate].name, {"pirate": pirate})


@cache
def area_options() -> tuple[Option, ...]:
    return tuple(Option(f"area:{area}", DATA.areas[area].name, {"area": area})
                 for area in AREAS)


@cache
def ship_options() -> tuple[Option, ...]:
    return tuple(Option(f"ship:{kind}", DATA.ship_types[kind].name, {"ship": kind})
                 for kind in SHIPS)


@lru_cache(maxsize=32)
def placement_options(cards: tuple[str, ...]) -> tuple[Option, ...]:
    """Every way to write down a sea area for each of `cards` (secret placement): 10 per
    pirate, in `AREAS` order [blackbeard §3.0]."""
    return tuple(Option("areas:" + "+".join(areas),
                        ", ".join(f"{DATA.pirates[card].name} to {DATA.areas[area].name}"
                                  for card, area in zip(cards, areas, strict=True)),
                        {"pirates": list(cards), "areas": list(areas)})
                 for areas in product(AREAS, repeat=len(cards)))


USES = {"actions": opt("use:actions", "for its Actions", use="actions"),
        "event": opt("use:event", "for its Event", use="event"),
        "event_and_action": opt("use:event_and_action", "for its Event and one Action",
                                use="event_and_action")}
K_OPTION = opt("k", "Action K: draw or deploy a pirate", action="k")


class BlackbeardState(Crown, GameState):
    """One game. Build it with `Blackbeard().new_game(...)`; see `arrange` for positions."""

    def __init__(self, players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(players, Chance(seed), options)
        self.flow = Flow()
        self.turn = 0
        self.active: int | None = None
        self.phase = "setup"
        self.active_pirate: str | None = None
        self.action_no = 0
        self.actions_left = 0
        self.actions_pirate: str | None = None
        """The pirate whose Initiative set a diamond card's Actions [blackbeard §4.52]."""
        self.actions_card_used = False
        self.hup_played = False
        self.fallbacks = 0
        self.draws = 0
        """Event cards drawn in this Player Turn (names the streams of MPI cards)."""
        self.rolled: dict[str, int] = {}
        """The dice of the rolls of the Action in progress, by name, after any re-roll."""
        self.bonus: dict[str, int] = {}
        """Skull and Crossbones bonuses on those rolls."""
        self.must_revel: str | None = None
        """A pirate who cashed in a Pirate Port in this In-Port Activities [blackbeard §9.35]."""
        self.passed: list[int] = []
        """Seats done deploying at setup."""
        self.placing: dict[int, list[tuple[str, str]]] = {}
        """Secret placement: the (Pirate card, ship type) each seat deploys, by seat, until
        the sealed window reveals their sea areas [blackbeard §3.0]."""
        self.written: dict[int, list[str]] = {}
        """Secret placement: the sea areas a seat has written down, hidden until all are in."""
        self.ap = Interference()
        self.challenger: Pirate | None = None
        """A Piratical Ambition challenger while his duel is fought [blackbeard §R4.5]."""
        self.threat_row: list[int] = []
        """Solitaire: the Crown's face-up AP cards, oldest first [blackbeard §R19.2]."""
        self.counted = False
        """The card being played is the turn's Actions card (moment 3 follows its Actions)."""
        self.card_loop = False
        """The Actions under way are those of the turn's Actions card."""
        self.card_actor: str | None = None
        """Solitaire: the pirate of the last Action of the turn's Actions card, for the
        Crown's moment 3 [blackbeard §R19.3]."""
        self.end_reason: str | None = None
        self._outcome: Outcome | None = None
        self._setup()
        self.flow.run(self)
        self._setup_events = self._events

    # ------------------------------------------------------------- the engine contract

    def pending(self) -> list[Request]:
        return self.flow.pending()

    apply = flow_apply

    def outcome(self) -> Outcome | None:
        return self._outcome

    def view(self, viewer: Viewer) -> dict[str, Any]:
        return views.view(self, viewer)

    def snapshot(self) -> dict[str, Any]:
        return views.snapshot(self)

    def determinize(self, seat: int, rng: random.Random) -> BlackbeardState:
        """See `determinize` (the module): others' cards, deck orders, face-down merchants
        and the chance, dealt again."""
        return determinize.determinize(self, seat, rng)

    def clone(self) -> BlackbeardState:
        new = object.__new__(BlackbeardState)
        new.__dict__.update(self.__dict__)
        new.flow = self.flow.copy()
        new.options = dict(self.options)
        new.seats = [seat.copy() for seat in self.seats]
        new.pirates = {pid: _copy_pirate(p) for pid, p in self.pirates.items()}
        new.ports = {code: _copy_port(port) for code, port in self.ports.items()}
        new.merchants = {code: _copy_merchant(m) for code, m in self.merchants.items()}
        for name in ("merchant_pool", "hostage_pool", "warship_pool", "kc_pool",
                     "anti_governors", "removed_governors", "event_deck", "discard",
                     "held_out", "pirate_deck", "retired", "dead", "passed", "threat_row"):
            setattr(new, name, getattr(self, name)[:])
        new.patrols = dict(self.patrols)
        new.from_bermuda = self.from_bermuda[:]
        new.placing = {seat: chosen[:] for seat, chosen in self.placing.items()}
        new.written = {seat: areas[:] for seat, areas in self.written.items()}
        new.rolled, new.bonus = dict(self.rolled), dict(self.bonus)
        new.kcs = {kc: Commissioner(c.id, c.owner, c.area) for kc, c in self.kcs.items()}
        new.kcs_killed = self.kcs_killed[:]
        new.ap = self.ap.copy()
        new.challenger = _copy_pirate(self.challenger) if self.challenger else None
        new._events = []
        return new

    # ------------------------------------------------------------------ setup (3.0)

    def _setup(self) -> None:
        """Steps 2-9 of setup; the draft (step 6, optional) and deployment (step 7) ask the
        seats [blackbeard §3.0]."""
        self._player_order()
        self._deal_events()
        self._pro_governors()
        # the draft does not apply to solitaire: the player is dealt [blackbeard §R19.5]
        draft = self.options["pirate_selection"] == "draft" and self.players > 1
        frames: list[Step] = []
        if draft:
            self.pirate_deck = self.chance.shuffled(sorted(DATA.pirates), "pirates", 0)
            first = self._highest_roller("draft")
            frames = [step("_draft_pick", seat, pick) for pick, seat in
                      enumerate(mech.draft_order(first, self.players, self.limits.dealt))]
        else:
            self._deal_pirates()
        for index in range(DATA.setup.merchants_at_setup):
            self._new_merchant("setup", index)
        self._emit("setup_done", {"order": list(self.order),
                                  "merchants": sorted(self.merchants)})
        if self.options["initial_placement"] == "secret":
            frames += [step("_deploy_round", 1), step("_secret_seal")]
        else:
            frames.append(step("_deploy_round", 1))
        self.flow.push(*frames, step("_turn_start"))

    def _player_order(self) -> None:
        """Each rolls 1d6; the highest is Player A, ties re-rolled among the tied; the
        order runs on from A in seat order [blackbeard §3.0]. Alone, the player is Player A
        without a roll [blackbeard §R19.1]."""
        first = self._highest_roller("order")
        self.order = tuple((first + k) % self.players for k in range(self.players))

    def _highest_roller(self, what: str) -> int:
        """Every seat rolls 1d6, ties re-rolled among the tied: the seat that rolls highest
        (`what`: "order" for Player A, "draft" for the first pick) [blackbeard §3.0]."""
        rolling, attempt = list(range(self.players)), 0
        while len(rolling) > 1:
            rolls = {seat: self.d6("setup", what, attempt, seat) for seat in rolling}
            self._emit(f"{what}_rolled", {"attempt": attempt,
                                           "rolls": {str(s): r for s, r in rolls.items()}})
            best = max(rolls.values())
            rolling = [seat for seat in rolling if rolls[seat] == best]
            attempt += 1
        return rolling[0]

    # ------------------------------------------------------------------ the draft (3.0 step 6)

    def _draft_pick(self, seat: int, pick: int) -> None:
        """One pick among the Pirate cards still in the deck, in snake order
        [blackbeard §3.0]. The picks are open: the next picker sees what is left."""
        self.flow.ask(seat, SETUP, "draft_pick", "Which Pirate card do you draft?",
                      tuple(pirate_option(card) for card in sorted(self.pirate_deck)),
                      step("_drafted", seat, pick))

    def _drafted(self, option: Option, seat: int, pick: int) -> None:
        card = option.payload["pirate"]
        self.pirate_deck.remove(card)
        hand = self.seats[seat].pirate_cards
        hand.append(card)
        hand.sort()
        self._emit("pirate_drafted", {"seat": seat, "pirate": card, "pick": pick})

    def _deal_events(self) -> None:
        """MPI cards set aside, 4 cards dealt in Player Order, then the MPI cards shuffled
        back in; a long game keeps the General Pardons out [blackbeard §3.0, §4.1]."""
        pardon = DATA.card("general_pardon").number
        cards = [card.number for card in self.deck_cards.values() for _ in range(card.copies)]
        if self.options["game_length"] == "long":
            self.held_out = [c for c in cards if c == pardon]
            cards = [c for c in cards if c != pardon]
        mpi = [c for c in cards if self.deck_cards[c].cls == "MPI"]
        rest = self.chance.shuffled([c for c in cards if self.deck_cards[c].cls != "MPI"],
                                    "events", 0)
        for _ in range(DATA.setup.event_hand):
            for seat in self.order:
                self.seats[seat].events.append(rest.pop())
        if self.players == 1:
            self._build_threat_row(rest)
        self.event_deck = self.chance.shuffled(sorted(rest + mpi), "events", 1)
        self.event_shuffles = 2
        for seat in range(self.players):
            self.seats[seat].events.sort()
            self._tell(seat, "events_dealt", {"seat": seat, "cards": self.seats[seat].events[:]},
                       {"seat": seat, "count": len(self.seats[seat].events)})

    def _build_threat_row(self, rest: list[int]) -> None:
        """Solitaire: cards turned up one at a time, AP cards into the Threat Row until it
        holds its setup size, any other card discarded; the MPI cards are still out
        [blackbeard §R19.1]."""
        while rest and len(self.threat_row) < DATA.setup.threat_row_start:
            card = rest.pop()
            if self.deck_cards[card].cls == "AP":
                self.threat_row.append(card)
            else:
                self.discard.append(card)
        self._emit("threat_row_built", {"row": self.threat_row[:], "discarded": self.discard[:]})

    def _pro_governors(self) -> None:
        """The 8 Pro-Pirate Governors by d66, never in a Pirate Port or a port with a
        Governor: the next available port [blackbeard §3.0, §6.32]."""
        for index, governor in enumerate(g.id for g in DATA.governors.values()
                                         if g.side == "pro"):
            code = self.next_port(self.d66("setup", "governor", index), self._governor_fits)
            if code is not None:
                self.place_governor(governor, code)

    def _governor_fits(self, code: int) -> bool:
        return (not DATA.ports[code].pirate_port and not self.ports[code].destroyed
                and self.ports[code].governor is None)

    def _deal_pirates(self) -> None:
        self.pirate_deck = self.chance.shuffled(sorted(DATA.pirates), "pirates", 0)
        for _ in range(self.limits.dealt):
            for seat in self.order:
                self.seats[seat].pirate_cards.append(self.pirate_deck.pop())
        for seat in range(self.players):
            cards = self.seats[seat].pirate_cards
            cards.sort()
            self._tell(seat, "pirates_dealt", {"seat": seat, "cards": cards[:]},
                       {"seat": seat, "count": len(cards)})

    def _new_merchant(self, *name: str | int) -> bool:
        """One merchant drawn blind and placed face down by d66; False when the pool is
        empty [blackbeard §6.31, §6.32]."""
        merchant = self.draw_from(self.merchant_pool, "merchants", *name, "pool")
        if merchant is None:
            return False
        self.place_merchant(self.next_port(self.d66("merchants", *name, "port"),
                                           self.merchant_fits), merchant)
        return True

    # ------------------------------------------------------------------ deployment (3.0 step 7)

    def _deploy_round(self, round_no: int) -> None:
        """Round 1 is mandatory; later rounds optional, within the map limit."""
        self.flow.push(*(step("_deploy_ask", seat, round_no) for seat in self.order),
                       step("_deploy_round_end", round_no))

    def _deploy_round_end(self, round_no: int) -> None:
        if any(self._may_deploy(seat) and seat not in self.passed for seat in self.order):
            self.flow.push(step("_deploy_round", round_no + 1))

    def _may_deploy(self, seat: int) -> bool:
        placed = len(self.pirates_of(seat)) + len(self.placing.get(seat, ()))
        return bool(self.seats[seat].pirate_cards) and placed < self.limits.map_limit

    def _deploy_ask(self, seat: int, round_no: int) -> None:
        if seat in self.passed or not self._may_deploy(seat):
            return
        cards = tuple(pirate_option(card) for card in self.seats[seat].pirate_cards)
        optional = round_no > 1
        self.flow.ask(seat, SETUP, "deploy_card", "Which pirate do you deploy?",
                      (PASS, *cards) if optional else cards, step("_deploy_card", seat),
                      optional=optional)

    def _deploy_card(self, option: Option, seat: int) -> None:
        if option is PASS:
            self.passed.append(seat)
            self._emit("deploy_passed", {"seat": seat})
            return
        self._ask_area(seat, option.payload["pirate"], "SETUP")

    def _ask_area(self, seat: int, card: str, window: str) -> None:
        """The sea area: chosen in the open; at setup, optionally by d66 (the area of that
        port; Bermuda's is North Atlantic) or written down secretly [blackbeard §3.0,
        §R1.5.3]."""
        placement = self.options["initial_placement"] if window == "SETUP" else "open"
        if placement == "random":
            code = self.d66("setup", "placement", card)
            area = DATA.ports[code].area
            self._emit("placement_rolled", {"seat": seat, "pirate": card, "roll": code,
                                            "area": area})
            self._deploy_area(opt(f"area:{area}", area, area=area), seat, card, window)
            return
        if placement == "secret":
            self._deploy_area(None, seat, card, window)
            return
        self.flow.ask(seat, Window(window), "deploy_area", "In which sea area?",
                      area_options(), step("_deploy_area", seat, card, window))

    def _deploy_area(self, option: Option | None, seat: int, card: str, window: str) -> None:
        area = option.payload["area"] if option is not None else ""
        self.flow.ask(seat, Window(window), "deploy_ship", "Sloop or Schooner?", ship_options(),
                      step("_deploy_ship", seat, card, area))

    def _deploy_ship(self, option: Option, seat: int, card: str, area: str) -> None:
        if area:
            self.deploy(seat, card, area, option.payload["ship"])
            return
        self.seats[seat].pirate_cards.remove(card)  # secret placement: the area comes later
        self.placing.setdefault(seat, []).append((card, option.payload["ship"]))
        self._emit("deploy_chosen", {"seat": seat, "pirate": card, "ship": option.payload["ship"]})

    def _secret_seal(self) -> None:
        """Secret placement: every seat writes down the sea areas of the pirates it deploys,
        in one sealed window, revealed at once [blackbeard §3.0]."""
        self.flow.push(step("_secret_reveal"))
        self.flow.seal("deploy_areas", "In which sea areas do your pirates start?",
                       [placement_options(tuple(card for card, _ in self.placing[seat]))
                        for seat in range(self.players)], step("_secret_written"))

    def _secret_written(self, option: Option, seat: int) -> None:
        self.written[seat] = list(option.payload["areas"])
        self._emit("placement_written", {"seat": seat})

    def _secret_reveal(self) -> None:
        revealed = {str(seat): dict(zip((card for card, _ in self.placing[seat]),
                                        self.written[seat], strict=True))
                    for seat in self.order}
        self._emit("placement_revealed", {"areas": revealed})
        for seat in self.order:
            for (card, kind), area in zip(self.placing[seat], self.written[seat], strict=True):
                self.deploy(seat, card, area, kind, from_hand=False)
        self.placing, self.written = {}, {}

    def deploy(self, seat: int, card: str, area: str, kind: str, *,
               from_hand: bool = True) -> Pirate:
        """A Pirate card from the hand to the map, with a new ship and display
        [blackbeard §5.13]."""
        if from_hand:
            self.seats[seat].pirate_cards.remove(card)
        pirate = Pirate(card, seat, area, self.new_ship(kind), deployed_turn=self.turn)
        self.pirates[card] = pirate
        self._emit("pirate_deployed", {"seat": seat, "pirate": card, "area": area,
                                       "ship": kind})
        return pirate

    # ------------------------------------------------------------------ the Player Turn (4.4)

    def _turn_start(self) -> None:
        """Scurvy, then Loyalty-0 mutinies, then phases A-D [blackbeard §4.4, §R4.5]."""
        if self.solitaire_spent():
            return
        self.turn += 1
        if self.turn > self.options["round_cap"] * self.players:
            self._end_game("round_cap")
            return
        seat = self.order[(self.turn - 1) % self.players]
        self.active, self.phase = seat, "draw"
        self.actions_card_used = self.hup_played = False
        self.fallbacks = self.action_no = self.actions_left = self.draws = 0
        self.actions_pirate = self.active_pirate = None
        self.ap.new_turn()
        self._emit("turn_started", {"turn": self.turn, "seat": seat})
        every = self.options["scurvy_tick"] == "every_turn"
        for pirate in list(self.pirates.values()):
            if pirate.ship.scurvy and (every or pirate.owner == seat):
                self.loyalty_row(pirate, "scurvy")
        mutinies = [step("_mutiny", p.id, "start") for p in self.pirates_of(seat)
                    if p.ship.loyalty == 0]
        self.flow.push(*mutinies, step("_draw_phase"), step("_merchant_phase"),
                       step("_card_phase"), step("_end_turn"))

    def _draw_phase(self) -> None:
        """A: draw to 4; a Must Play Immediately card is resolved at once and another drawn
        [blackbeard §4.4]."""
        if self.phase == "over" or self.solitaire_spent():
            return
        assert self.active is not None
        hand = self.seats[self.active].events
        while len(hand) < DATA.setup.event_hand:
            card = self._draw_event()
            if card is None:
                break
            self.draws += 1
            if self.deck_cards[card].cls == "MPI":
                self.flow.push(step("_draw_phase"))
                self._emit("event_drawn", {"seat": self.active, "card": card, "mpi": True})
                self.must_play(card)
                return
            hand.append(card)
            hand.sort()
            self._tell(self.active, "event_drawn", {"seat": self.active, "card": card},
                       {"seat": self.active})
        self.phase = "merchants"

    def _draw_event(self) -> int | None:
        """The top card; an empty deck is the discard pile (and, the first time in a long
        game, the General Pardons) shuffled [blackbeard §R4.6]."""
        if not self.event_deck:
            cards = sorted(self.discard + self.held_out)
            self.discard, self.held_out = [], []
            if not cards:
                return None
            self.event_deck = self.chance.shuffled(cards, "events", self.event_shuffles)
            self.event_shuffles += 1
            self._emit("events_reshuffled", {"cards": len(cards)})
        return self.event_deck.pop()

    def _merchant_phase(self) -> None:
        """B: fewer than 5 merchants on the map are brought up to 6 [blackbeard §4.4]."""
        if self.phase == "over":
            return
        self.phase = "cards"
        if len(self.merchants) >= DATA.setup.merchant_phase_below:
            return
        index = 0
        while len(self.merchants) < DATA.setup.merchant_phase_up_to:
            before = len(self.merchants)
            if not self._new_merchant("turn", self.turn, index) or len(self.merchants) == before:
                break  # an empty pool, or a merchant no port takes: counted as placed
            index += 1

    # ------------------------------------------------------------------ card play (4.4 C)

    def _card_phase(self) -> None:
        """C: the next card, or the end once a Hold-until-Played card was played; the 4.55
        fallback when no card can set Actions [blackbeard §4.4, §4.55]."""
        if self.phase != "cards" or self.solitaire_spent():
            return
        assert self.active is not None
        hand = sorted(set(self.seats[self.active].events))
        options = [card_option(card) for card in hand if self._uses(card)]
        if (not self.actions_card_used and self.fallbacks < 2
                and not any(self._sets_actions(card) for card in hand)):
            options += [fallback_option(card) for card in hand]
        if self.hup_played or not hand:
            options.append(END)
        assert options, "a hand always offers a card, the 4.55 fallback or the end"
        options += self._dissolve_options()
        self.flow.push(step("_card_phase"))
        # published: whether a choice is left depends on the hand, which only he sees
        self.flow.ask(self.active, TURN, "choose_card", "Play a card, or end the phase",
                      tuple(options), step("_chosen_card"), publish=True)

    def _uses(self, card: int) -> list[str]:
        """How `card` may be played now [blackbeard §4.4, §17.12, §17.16]."""
        spec = self.deck_cards[card]
        if spec.cls == "AND":
            counts = self.options["and_card_counts_as_actions_card"]
            free = not (counts and (self.actions_card_used or self.fallbacks))
            return ["event_and_action"] if free and self.event_possible(card) else []
        uses = ["actions"] if self._can_actions(card) else []
        if spec.cls == "OR" and self.event_possible(card):
            uses.append("event")
        return uses

    def _can_actions(self, card: int) -> bool:
        if self.actions_card_used or self.fallbacks:
            return False
        actions = self.actions_of(card)
        if actions == DIAMOND:
            assert self.active is not None
            return bool(self.pirates_of(self.active))
        return isinstance(actions, int) and actions > 0

    def _sets_actions(self, card: int) -> bool:
        """Whether `card` can be played now to set a number of Actions: for Actions, or
        as an AND card whose Event can be carried out [blackbeard §4.55]."""
        return bool({"actions", "event_and_action"}.intersection(self._uses(card)))

    def _dissolve_options(self) -> list[Option]:
        """Announcing the end of an alliance: free, on the owner's turn, whenever no
        Pirate Action is under way [blackbeard §11.16]."""
        assert self.active is not None
        return [dissolve_option(p.id) for p in self.pirates_of(self.active)
                if p.ally is not None and p.id < p.ally]

    def _dissolved(self, option: Option) -> bool:
        if "dissolve" not in option.payload:
            return False
        self.dissolve(self.pirates[option.payload["pirate"]], "announced")
        return True

    def _chosen_card(self, option: Option) -> None:
        assert self.active is not None
        if option is END:
            self.phase = "turn_end"
            return
        if self._dissolved(option):
            return
        card = option.payload["card"]
        self._emit("card_played", {"seat": self.active, "card": card})  # face up from now
        if option.key.startswith("fallback:"):
            self._play(card, "fallback")
            self.discard.append(card)
            self.fallbacks += 1
            self._start_actions(1, None)
            return
        uses = self._uses(card)
        self.flow.ask(self.active, TURN, "use_card", "How do you use the card?",
                      tuple(USES[use] for use in uses), step("_use_card", card))

    def _play(self, card: int, use: str) -> None:
        assert self.active is not None
        self.seats[self.active].events.remove(card)
        self.hup_played = True
        self._emit("card_used", {"seat": self.active, "card": card, "use": use})

    def _use_card(self, option: Option, card: int) -> None:
        use = option.payload["use"]
        self._play(card, use)
        if use == "actions":
            self.actions_card_used = self.counted = True
            self.discard.append(card)
            if self.is_diamond(card):
                assert self.active is not None
                self.flow.ask(self.active, TURN, "diamond_pirate",
                              "Whose Initiative sets the Actions?",
                              tuple(pirate_option(p.id) for p in self.pirates_of(self.active)),
                              step("_diamond"))
            else:
                actions = self.actions_of(card)
                assert isinstance(actions, int)
                self._start_actions(actions, None)
            return
        if use == "event_and_action":
            if self.options["and_card_counts_as_actions_card"]:
                self.actions_card_used = self.counted = True
            self.flow.push(step("_and_action"))
        self.play_event(card)

    def _diamond(self, option: Option) -> None:
        pirate = option.payload["pirate"]
        self._start_actions(DATA.pirates[pirate].initiative, pirate)

    def _and_action(self) -> None:
        self._start_actions(1, None)

    def _start_actions(self, count: int, pirate: str | None) -> None:
        self.actions_left, self.actions_pirate = count, pirate
        self.card_loop, self.counted, self.card_actor = self.counted, False, None
        self._emit("actions_granted", {"seat": self.active, "actions": count, "pirate": pirate})
        if self.players == 1 and self.card_loop:  # the Crown's moment 3 [blackbeard §R19.3]
            self.flow.push(step("_action_loop"), step("_crown_moment3"))
            return
        self.flow.push(step("_action_loop"))

    # ------------------------------------------------------------------ the Actions (4.5)

    def _action_loop(self) -> None:
        """The next Action of the card: which pirate (or Action K), or stop
        [blackbeard §4.51, §4.54]."""
        assert self.active is not None
        if self.solitaire_spent():
            return
        if self.actions_left <= 0 or self.phase == "over":
            self.actions_left = 0
            self.clear_half_moves(None)
            return
        bound = self.actions_pirate if self.actions_pirate in self.pirates else None
        candidates = (list(self.alliance(self.pirates[bound])) if bound
                      else self.pirates_of(self.active))
        # an alliance acts as one: through its Active Pirate [blackbeard §11.12]
        options = [pirate_option(p.id) for p in candidates
                   if (p.ally is None or self.leads(p)) and self.legal_actions(p)]
        if self.k_legal(self.active):
            options.append(K_OPTION)
        options.append(STOP)
        options += self._dissolve_options()
        self.flow.push(step("_action_loop"))
        self.flow.ask(self.active, TURN, "choose_pirate", "Which pirate acts?", tuple(options),
                      step("_chosen_pirate"))

    def _chosen_pirate(self, option: Option) -> None:
        assert self.active is not None
        if option is STOP:
            self.actions_left = 0
            return
        if option is K_OPTION:
            self._begin_action(None, "k")
            self.action_k(self.active)
            return
        if self._dissolved(option):
            self.flow.push(step("_action_loop"))  # free: the loop asks again
            return
        pirate = self.pirates[option.payload["pirate"]]
        actions = self.legal_actions(pirate)
        self.flow.ask(self.active, TURN, "choose_action", "Which Action?",
                      tuple(action_option(action) for action in actions),
                      step("_chosen_action", pirate.id))

    def _chosen_action(self, option: Option, pid: str) -> None:
        assert self.active is not None
        action = option.payload["action"]
        targets = self.targets(self.pirates[pid], action)
        if targets is None:
            self._announce(None, pid, action)
            return
        self.flow.ask(self.active, TURN, TARGET_KINDS[action], TARGET_PROMPTS[action], targets,
                      step("_announce", pid, action))

    def _begin_action(self, pid: str | None, action: str, target: Any = None) -> None:
        self.actions_left -= 1
        self.action_no += 1
        if self.card_loop:
            self.card_actor = pid
        self.ap.new_action(action, target)
        self.clear_half_moves(pid if action == "move" else None)
        if pid is not None:
            pirate = self.pirates[pid]
            if action != "sack":
                pirate.sack_pending = None
            if action != "recover":
                pirate.recover_progress = 0
        self._emit("action_announced", {"seat": self.active, "pirate": pid, "action": action,
                                        "number": self.action_no})

    def _announce(self, option: Option | None, pid: str, action: str) -> None:
        """The Action and its targets announced; the activation check of a Loyalty-0 crew,
        then the T-ANN window [blackbeard §R4.3]."""
        target = option.payload.get("target") if option is not None else None
        self._begin_action(pid, action, target)
        self.active_pirate = pid
        frames: list[Step] = []
        if self.pirates[pid].ship.loyalty == 0:
            frames.append(step("_mutiny", pid, "activation"))
        self.flow.push(*frames, step("_t_ann", pid, action, target))

    def _t_ann(self, pid: str, action: str, target: Any) -> None:
        if not self._still_active(pid):
            self._emit("action_lost", {"pirate": pid, "action": action})
            self.active_pirate = None
            return
        window = self.windows(self.pirates[pid], action, target)
        steps: list[Step | Poll] = [step("_do_" + action, pid, target)]
        if window:
            steps.insert(0, self.poll("T-ANN", pid))
        steps.append(step("_action_over" if action in NO_WINDOWS else "_t_end", pid))
        self.flow.push(*steps)

    def _still_active(self, pid: str) -> bool:
        pirate = self.pirates.get(pid)
        return pirate is not None and pirate.owner == self.active

    def _t_end(self, pid: str) -> None:
        """Completion: a D&R card played during the Action, an automatic Loyalty-0
        mutiny, then the T-END window [blackbeard §14.11, §R4.3, §R4.5]."""
        if not self._still_active(pid):
            self.ap.revelry = []  # his D&R card lapses with him [blackbeard §R4.3]
            self.active_pirate = None
            self.solitaire_spent()
            return
        self.apply_revelry_cards()
        if self.pirates[pid].ship.loyalty == 0:
            self.flow.push(step("_mutiny", pid, "end"), step("_t_end_window", pid))
            return
        self._t_end_window(pid)

    def _t_end_window(self, pid: str) -> None:
        if self._still_active(pid):
            self.flow.push(self.poll("T-END", pid), step("_action_over"))
        else:
            self.active_pirate = None

    def _action_over(self, pid: str | None = None) -> None:
        self.active_pirate = None
        self.solitaire_spent()

    # ------------------------------------------------------------------ Bermuda (4.3)

    def _bermuda(self) -> None:
        """Each pirate an effect placed At Sea from Bermuda: his owner chooses North
        Atlantic or Central Atlantic; an ally goes with him [blackbeard §2.2, §7.3, §11.12]."""
        pending, self.from_bermuda = self.from_bermuda, []
        self.flow.push(*(step("_bermuda_ask", pid) for pid in pending))

    def _bermuda_ask(self, pid: str) -> None:
        pirate = self.pirates.get(pid)
        if pirate is None or pirate.port is not None or pirate.area not in BERMUDA:
            return
        partner = self.partner(pirate)
        if partner is not None and partner.id < pid and partner.port is None \
                and partner.area in BERMUDA:
            return  # asked once for the alliance, with the other ally
        seat = pirate.owner
        self.flow.ask(seat, TURN if seat == self.active else INTERRUPT, "bermuda_area",
                      f"{DATA.pirates[pid].name} leaves Bermuda: into which sea area?",
                      tuple(o for o in area_options() if o.payload["area"] in BERMUDA),
                      step("_bermuda_area", pid))

    def _bermuda_area(self, option: Option, pid: str) -> None:
        area = option.payload["area"]
        for pirate in self.alliance(self.pirates[pid]):
            pirate.area = area
            self._emit("bermuda_area", {"pirate": pirate.id, "area": area})

    def _end_turn(self) -> None:
        """D: located merchants are no longer located, a half Move is lost; the next player
        [blackbeard §4.4, §8.15]."""
        if self.phase == "over":
            return
        for merchant in self.merchants.values():
            merchant.located_by = None
        self.clear_half_moves(None)
        self._emit("turn_ended", {"turn": self.turn, "seat": self.active})
        if self.players == 1:  # the Crown Phase [blackbeard §R19.2]
            self.flow.push(step("_crown_phase"), step("_turn_start"))
            return
        self.flow.push(step("_turn_start"))

    # ------------------------------------------------------------------ mutiny (14.0)

    def _mutiny(self, pid: str, when: str) -> None:
        """The owner rolls 1d6 against Leadership: above, the mutiny succeeds; equal,
        averted (Loyalty -1); below, crushed [blackbeard §14.12]."""
        pirate = self.pirates.get(pid)
        if pirate is not None and pirate.ship.loyalty == 0:
            self.mutiny_breaks_out(pid, when)

    def mutiny_breaks_out(self, pid: str, when: str) -> None:
        self._roll(pid, "mutiny", 1, False, step("_mutiny_rolled", pid), name=(pid, when))

    def _mutiny_rolled(self, pid: str) -> None:
        pirate = self.pirates.get(pid)
        if pirate is None:
            return
        roll = self.rolled["mutiny"]
        leadership = DATA.pirates[pid].leadership
        result = mech.mutiny(DATA, roll, leadership, pirate.ship.loyalty)
        self._emit("mutiny", {"pirate": pid, "roll": roll, "leadership": leadership,
                              "result": result.result})
        if result.result != mech.SUCCEEDED:
            pirate.ship.loyalty = result.loyalty
            return
        seat = pirate.owner
        cards = self.seats[seat].pirate_cards
        if cards:
            self.flow.ask(seat, TURN if seat == self.active else INTERRUPT, "new_captain",
                          "Who takes command of the ship?",
                          tuple(pirate_option(card) for card in cards),
                          step("_new_captain", pid, result.loyalty))
        elif self.pirate_deck:
            card = self.pirate_deck.pop()
            self._tell(seat, "pirate_drawn", {"seat": seat, "card": card}, {"seat": seat})
            cards.append(card)
            self._new_captain(pirate_option(card), pid, result.loyalty)
        else:
            self._emit("ship_lost", {"pirate": pid})
            self.eliminate(pirate, "mutiny")

    def _new_captain(self, option: Option, pid: str, loyalty: int) -> None:
        """The old captain is dead (case B); the new one keeps the ship, with Crew
        Loyalty 6 [blackbeard §14.12, §R18.12]."""
        old = self.pirates[pid]
        card = option.payload["pirate"]
        ship = old.ship
        old.ship = self.new_ship(ship.type)  # the old record leaves with an empty ship
        self.eliminate(old, "mutiny")
        self.seats[old.owner].pirate_cards.remove(card)
        new = Pirate(card, old.owner, old.area, ship, port=old.port, deployed_turn=self.turn)
        self.pirates[card] = new
        new.ship.loyalty = loyalty
        self._emit("new_captain", {"pirate": card, "replaces": pid, "seat": old.owner})

    # ------------------------------------------------------------------ the end (18.5)

    def _end_game(self, reason: str) -> None:
        """Each pirate in play scores his NP (case G); the most VP wins, ties broken
        [blackbeard §R18.5]. Alone, the player wins with at least the level's VP target,
        and his score is the margin over it [blackbeard §R19.6]."""
        for pirate in list(self.pirates.values()):
            self.score(pirate.owner, mech.score(DATA, "G", notoriety=pirate.notoriety).vp, "G",
                       pirate.id)
        if self.players == 1:
            self._solitaire_over(reason)
            return
        places = mech.places(DATA, self.seats, tie_breaks=self.options["tie_breaks"])
        self._outcome = Outcome(places, tuple(s.vp for s in self.seats))
        self.phase, self.end_reason, self.active_pirate = "over", reason, None
        self._emit("game_over", {"reason": reason, "vp": [s.vp for s in self.seats],
                                 "places": list(self._outcome.places)})
        self.flow.stop()

    def _solitaire_over(self, reason: str) -> None:
        vp, target = self.seats[0].vp, self.level.vp_target
        margin = vp - target
        self._outcome = Outcome((1,), (margin,))
        self.phase, self.end_reason, self.active_pirate = "over", reason, None
        self._emit("game_over", {"reason": reason, "vp": [vp], "places": [1],
                                 "target": target, "margin": margin, "won": margin >= 0,
                                 "level": self.options["solitaire_level"]})
        self.flow.stop()


@cache
def action_option(action: str) -> Option:
    return Option(f"action:{action}", ACTION_NAMES[action], {"action": action})


ACTION_NAMES = {"move": "A Move", "locate": "B Locate a merchant", "loot": "C Loot a merchant",
                "in_port": "D In-Port Activities", "grab": "E Booty Grab",
                "recover": "F Recover from D&R", "attack": "G Attack a port",
                "sack": "H Sack the port", "ally": "I Form a Pirate Alliance",
                "retire": "J Retire", "dig": "Dig for treasure"}
TARGET_KINDS = {"move": "move_to", "locate": "locate_target", "loot": "loot_target",
                "attack": "attack_target", "grab": "grab_target", "retire": "retire",
                "ally": "ally_target"}
TARGET_PROMPTS = {"move": "Where to?", "locate": "Which merchant?", "loot": "Which merchant?",
                  "attack": "Which port?", "grab": "Whose Booty?", "retire": "How to retire?",
                  "ally": "Ally with which of your pirates?"}


@cache
def dissolve_option(pirate: str) -> Option:
    return Option(f"dissolve:{pirate}", f"end the alliance of {DATA.pirates[pirate].name}",
                  {"pirate": pirate, "dissolve": True})


def _copy_pirate(pirate: Pirate) -> Pirate:
    s = pirate.ship
    ship = Ship(s.type, s.combat, s.speed, s.loyalty, s.holds[:],
                [Hostage(h.id, h.nation) for h in s.hostages], set(s.attack_history),
                s.letter_of_marque, s.heavy_guns, s.scurvy, s.revelry)
    return Pirate(pirate.id, pirate.owner, pirate.area, ship, pirate.port, pirate.notoriety,
                  pirate.net_worth, pirate.cunning_used, dict(pirate.information),
                  set(pirate.bribed), pirate.buried_treasure, pirate.sack_pending,
                  pirate.deployed_turn, pirate.half_move, pirate.recover_progress, pirate.ally)


def _copy_port(port: PortState) -> PortState:
    return PortState(port.governor, port.destroyed, port.attacked, port.safe_haven)


def _copy_merchant(merchant: Merchant) -> Merchant:
    return Merchant(merchant.id, merchant.port, merchant.face_up, merchant.located_by)
