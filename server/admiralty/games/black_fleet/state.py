"""A game in progress: the turn sequence of black_fleet.md §5 as a small state machine.

The game sits in one *stage* at a time (see `Stage`). `_proceed` runs automatic
steps (income, draws, the end of a turn) until a stage needs a decision; if that
decision has only one legal option it is applied at once, so a bot is only asked
when it has a real choice. The exception is a fortune window: it is published
whenever the active seat holds a fortune card, even with `pass` alone, so that
whether it opens tells the other seats nothing about that hand (the referee applies
a lone option itself). Each open decision is kept as a list of `(Option, handler,
argument)` triples: `apply` validates the index, then calls the handler, so an
illegal answer never touches the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from admiralty.games.base import Event, GameState, IllegalAction, Outcome, Request, Window
from admiralty.games.black_fleet import actions, cards, movement, options, view
from admiralty.games.black_fleet.board import Port
from admiralty.games.black_fleet.data import GameData
from admiralty.games.black_fleet.events import tell
from admiralty.games.black_fleet.pieces import Player, Ship
from admiralty.games.black_fleet.stages import Stage

Choice = tuple[Any, Callable[..., None], Any]
"""An open option: the `Option` shown, the handler `(state, argument, events)`, its argument."""


_PROMPTS = {
    "place_merchant": "Choose a port and a free space next to it for your merchant",
    "reenter_merchant": "Your merchant was sunk: choose where it re-enters",
    "reenter_pirate": "Your pirate is off the board: choose where it re-enters",
    "play_fortune": "You may play a fortune card",
    "play_movement": "Play one of your movement cards",
    "choose_ship": "Choose the next ship to activate",
    "choose_action": "This ship may act here",
    "move_ship": "Sail the ship to a space, or end its activation here",
    "choose_target": "Choose the card's target",
    "choose_destination": "Choose where the ship goes",
    "discard_fortune": "Discard a fortune card",
    "buy": "You may buy one development card or your victory card",
    "name_port": "Name the port of your Trade Charter",
}


class BlackFleetState(GameState):
    """One game of Black Fleet for 3 or 4 seats; seat 0 holds black and starts."""

    def __init__(
        self, data: GameData, players: int, seed: int, victory_costs: list[int], round_cap: int
    ):
        setup = data.setup
        self.data = data
        self.players = players
        self.rng = random.Random(seed)
        self.round_cap = round_cap
        colours = list(setup.colours[1:])
        self.rng.shuffle(colours)
        self.seats = [
            Player(seat, colour, setup.start_money + setup.seat_bonus[seat], victory_costs[seat])
            for seat, colour in enumerate([setup.colours[0], *colours[: players - 1]])
        ]
        self.navies = {colour: Ship("navy", navy=colour) for colour in data.board.navy_start}
        self._by_ref = self.ships()
        self.at: dict[int, Ship] = {}
        """The resting ships by space (the ship being activated is lifted off)."""
        self.stock = dict.fromkeys(data.board.goods, setup.cubes_per_colour)
        self.movement_deck: list[str] = []
        self.movement_discard: list[str] = []
        self.fortune_deck: list[str] = []
        self.fortune_discard: list[str] = []
        self.box: list[str] = []
        self.round = 1
        self.turn = 0
        self.active = 0
        self.final_round = False
        self.ended_by: str | None = None
        self.setup_seat = 0
        self._reset_turn()
        self._window_id = 0
        self._outcome: Outcome | None = None
        self._setup_events = self._deal()
        self.stage = Stage.PLACE
        self._proceed(self._setup_events)

    # -- setup (spec §4.1) ---------------------------------------------------------------

    def _deal(self) -> list[Event]:
        """Navies, cubes, development cards, fortune and movement hands; returns the events."""
        data, rng = self.data, self.rng
        for colour, navy in self.navies.items():
            self.put(navy, data.board.navy_start[colour])
        events = [
            Event(
                "game_started",
                {
                    "players": self.players,
                    "colours": [p.colour for p in self.seats],
                    "first_seat": 0,
                    "victory_costs": [p.victory_cost for p in self.seats],
                    "money": [p.money for p in self.seats],
                    "round_cap": self.round_cap,
                },
            )
        ]
        for cost in data.setup.development_costs:
            deck = data.development_by_cost(cost)
            rng.shuffle(deck)
            for player in self.seats:
                player.development[cost] = deck.pop()
            self.box.extend(deck)
        self.fortune_deck = list(data.fortune)
        rng.shuffle(self.fortune_deck)
        self.movement_deck = list(data.movement)
        rng.shuffle(self.movement_deck)
        for player in self.seats:
            cards_dealt = [player.development[cost] for cost in data.setup.development_costs]
            costs = list(data.setup.development_costs)
            tell(
                events,
                player.seat,
                "development_dealt",
                {"seat": player.seat, "cards": cards_dealt},
                {"seat": player.seat, "costs": costs},
            )
            self.draw_fortune(player, data.setup.fortune_start, events)
            self.draw_movement(player, data.setup.movement_hand, events)
        return events

    # -- the engine contract -----------------------------------------------------------

    def pending(self) -> list[Request]:
        made = self._request
        if made is None:
            if self._ask is None:
                return []
            kind, seat, window, optional, choices = self._ask
            shown = tuple(map(_OPTION, choices))
            made = self._request = Request(
                seat, self._window_id, window, kind, _PROMPTS[kind], shown, optional
            )
        return [made]

    def apply(self, seat: int, index: int) -> list[Event]:
        ask = self._ask
        if ask is None or ask[1] != seat:
            raise IllegalAction(f"seat {seat} has no open request")
        choices = ask[4]
        if type(index) is not int or not 0 <= index < len(choices):
            raise IllegalAction(f"option {index!r} is not one of the {len(choices)} options")
        _, handler, argument = choices[index]
        events: list[Event] = []
        handler(self, argument, events)
        self._proceed(events)
        return events

    def outcome(self) -> Outcome | None:
        return self._outcome

    def view(self, viewer: int | None) -> dict[str, Any]:
        return view.view(self, viewer)

    def snapshot(self) -> dict[str, Any]:
        return view.snapshot(self)

    def static_info(self) -> dict[str, Any]:
        return view.static_info(self.data)

    def clone(self) -> BlackFleetState:
        other = object.__new__(BlackFleetState)
        other.__dict__.update(self.__dict__)
        other.seats = [player.copy() for player in self.seats]
        other.navies = {colour: navy.copy() for colour, navy in self.navies.items()}
        ships = other._by_ref = other.ships()
        other.at = {space: ships[ship.ref] for space, ship in self.at.items()}
        other.ship = ships[self.ship.ref] if self.ship else None
        other.stock = self.stock.copy()
        for name in ("movement_deck", "movement_discard", "fortune_deck", "fortune_discard", "box"):
            setattr(other, name, getattr(self, name).copy())
        other.activated, other.acts, other.log = (
            self.activated.copy(),
            self.acts.copy(),
            self.log.copy(),
        )
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other

    # -- the stage machine ---------------------------------------------------------------

    def _proceed(self, events: list[Event]) -> None:
        """Run automatic steps and forced choices until a real decision is open."""
        self._request = None
        offers = _OFFERS
        while self.stage != _OVER:
            asked = offers[self.stage](self, events)
            if asked is None:
                continue
            kind, choices, optional = asked
            assert choices, f"{kind} offered no option"  # every stage checks before asking
            if len(choices) == 1 and kind != "play_fortune":  # a window is always published
                _, handler, argument = choices[0]
                handler(self, argument, events)
                continue
            self._window_id += 1
            if self.stage == _PLACE:
                self._ask = (kind, self.setup_seat, _SETUP, optional, choices)
            else:
                self._ask = (kind, self.active, _TURN, optional, choices)
            return
        self._ask = None

    def _reset_turn(self) -> None:
        """Clear what lasts one turn (the played card, activations, the turn's log)."""
        self.played: str | None = None
        self.controlled: tuple[str, ...] = ()
        self.activated: list[str] = []
        self.ship: Ship | None = None
        self.points = 0
        self.acts: list[str] = []
        self.declined = False
        self.sailed = False
        self.broadside_used = False
        self.swapped = False
        self.next_navy_spent = False
        self.log: list[tuple] = []
        self.window = ""
        self.window_after = ""
        self.effect: str | None = None
        self.effect_ship: str | None = None
        self.discard_owed = 0
        self._ask: tuple | None = None
        self._request: Request | None = None

    # -- setup placement (spec §4.1 step 9) ---------------------------------------------

    def _offer_place(self, events: list[Event]):
        return "place_merchant", self._placements(), False

    def _placements(self) -> list[Choice]:
        """Every free space next to a port that still has cubes to load (spec §14.12-13)."""
        return [
            (
                options.place(port.key, port.name, port.colour, space),
                BlackFleetState._on_place,
                space,
            )
            for port in self.data.board.ports.values()
            if self.stock[port.colour]
            for space in port.adjacent
            if space not in self.at
        ]

    def _on_place(self, space: int, events: list[Event]) -> None:
        seat = self.setup_seat if self.stage == Stage.PLACE else self.active
        player = self.seats[seat]
        port = self.data.board.ports_next_to[space][0]
        ship = player.merchant
        self.put(ship, space)
        self.load(player, port, events)
        if self.stage == Stage.PLACE:
            self.setup_seat += 1
            if self.setup_seat == self.players:
                self._begin_turn(0, events)
        else:
            self._open_window("start", Stage.REENTER_PIRATE)

    # -- step 0: start of turn (spec §5.0) ------------------------------------------------

    def start_turn_of(self, seat: int) -> list[Event]:
        """Begin `seat`'s turn now, setup or not (positions built by `scenario.arrange`)."""
        events: list[Event] = []
        self.setup_seat = self.players
        self._begin_turn(seat, events)
        self._proceed(events)
        return events

    def _begin_turn(self, seat: int, events: list[Event]) -> None:
        self._reset_turn()
        self.active = seat
        self.turn += 1
        player = self.seats[seat]
        if player.boosts:
            player.boosts.clear()
            player.refresh(self.data)
        events.append(Event("turn_started", {"seat": seat, "turn": self.turn, "round": self.round}))
        income = player.mods.get("turn_income", 0)
        if income:
            self.pay(seat, income, "turn_income", events)
        self.stage = Stage.REENTER_MERCHANT

    def _offer_reenter_merchant(self, events: list[Event]):
        if self.seats[self.active].merchant.space is None:
            placements = self._placements()
            if placements:
                return "reenter_merchant", placements, False
            events.append(Event("merchant_stays_out", {"seat": self.active}))
        self._open_window("start", Stage.REENTER_PIRATE)
        return None

    def _offer_reenter_pirate(self, events: list[Event]):
        player = self.seats[self.active]
        if player.pirate.in_play:
            self.stage = Stage.PLAY
            return None
        choices = [
            (options.zone(key), BlackFleetState._on_zone, key) for key in self.data.board.zones
        ]
        if player.mods.get("reenter_at_lair"):
            choices += [
                (options.lair(space), BlackFleetState._on_lair, space)
                for space in self.data.board.lairs
                if space not in self.at
            ]
        return "reenter_pirate", choices, False

    def _on_zone(self, key: str, events: list[Event]) -> None:
        pirate = self.seats[self.active].pirate
        pirate.zone = key
        events.append(Event("pirate_placed", {"seat": self.active, "zone": key, "space": None}))
        self.stage = Stage.PLAY

    def _on_lair(self, space: int, events: list[Event]) -> None:
        self.place_pirate_on_lair(space, events)
        self.stage = Stage.PLAY

    # -- fortune windows (spec §5.6; reconstruction §3.1) --------------------------------

    def _open_window(self, name: str, after: str) -> None:
        self.window = name
        self.window_after = after
        self.stage = Stage.WINDOW

    def _offer_window(self, events: list[Event]):
        """A fortune window: published whenever the active seat holds a fortune card.

        Whether it opens depends only on what every seat sees (spec §9: the others see
        the size of a fortune hand, not the cards): with cards in hand it opens even if
        none of them can be played here, `pass` then being its only option. Opening it
        only for a playable card would tell the table which cards the seat holds.
        """
        choices = cards.window_options(self)
        if not choices and not self.seats[self.active].fortune:
            self.stage = self.window_after
            return None
        return "play_fortune", [(options.PASS, BlackFleetState._on_pass, None), *choices], True

    def _on_pass(self, _: None, events: list[Event]) -> None:
        self.stage = self.window_after

    def _offer_target(self, events: list[Event]):
        return "choose_target", cards.target_options(self), False

    def _offer_destination(self, events: list[Event]):
        return "choose_destination", cards.destination_options(self), False

    def _offer_cube(self, events: list[Event]):
        return "choose_target", actions.cube_options(self), False

    # -- step 1: the movement card (spec §5.1) --------------------------------------------

    def _offer_play(self, events: list[Event]):
        movement_cards = self.data.movement
        choices = []
        for card_id in self.seats[self.active].movement:
            c = movement_cards[card_id]
            option = options.movement_card(
                c.id, c.navy, c.navy_move, c.pirate, c.merchant, c.fortune
            )
            choices.append((option, BlackFleetState._on_play, card_id))
        return "play_movement", choices, False

    def _on_play(self, card_id: str, events: list[Event]) -> None:
        player = self.seats[self.active]
        player.movement.remove(card_id)
        self.movement_discard.append(card_id)
        self.played = card_id
        self.refresh_control()
        card = self.data.movement[card_id]
        events.append(Event("movement_played", {"seat": self.active, **card.to_json()}))
        self._open_window("first", Stage.CHOOSE_SHIP)

    def refresh_control(self) -> None:
        """The navy ships the active player moves this turn: the card's, or both (spec §5.3)."""
        mods = self.seats[self.active].mods
        named = self.data.movement[self.played].navy
        both = mods.get("both_navies") or mods.get("extra_navy")
        self.controlled = tuple(self.navies) if both else (named,)

    # -- step 2: ship activations (spec §5.2-§5.5) ----------------------------------------

    def waiting_ships(self) -> list[Ship]:
        """The ships the active player may still activate this turn."""
        player = self.seats[self.active]
        merchant, pirate, done = player.merchant, player.pirate, self.activated
        ships = [merchant] if merchant.space is not None and merchant.ref not in done else []
        if pirate.ref not in done and (pirate.space is not None or pirate.zone is not None):
            ships.append(pirate)
        for colour in self.controlled:
            navy = self.navies[colour]
            if navy.ref not in done:
                ships.append(navy)
        return ships

    def _offer_choose_ship(self, events: list[Event]):
        return "choose_ship", _activate_choices(self.waiting_ships()), False

    def _on_activate(self, ref: str, events: list[Event]) -> None:
        ship = self._by_ref[ref]
        self.ship = ship
        self.points = points = movement.allowance(self, ship)
        self.acts = []
        self.declined = self.sailed = False
        if ship.space is not None:
            del self.at[ship.space]
        events.append(Event("ship_activated", {"seat": self.active, "ship": ref, "points": points}))
        self.stage = Stage.ACTIVATION

    def _offer_activation(self, events: list[Event]):
        """Act here, or sail on; after a leg with nothing to do on a free space, the ship stops.

        Sailing X then Y is the same as sailing to Y directly, so a leg only ends
        short of the activation's end when the ship can act where it arrives; this
        keeps each activation to the choices that matter.
        """
        ship = self.ship
        if not self.declined and ship.space is not None:
            acting = actions.options_for(self, ship)
            if acting:
                return (
                    "choose_action",
                    [
                        (options.PASS, BlackFleetState._on_decline, None),
                        *[
                            (option, BlackFleetState._on_act, (handler, argument))
                            for option, handler, argument in acting
                        ],
                    ],
                    True,
                )
        free = ship.space not in self.at
        if self.sailed and free:
            self._on_stop(None, events)
            return None
        found = movement.destinations(self, ship)
        choices = [_STOP] if free else []
        choices += _sail_choices(found)
        return "move_ship", choices, False

    def _on_act(self, action: tuple[Callable[..., None], Any], events: list[Event]) -> None:
        handler, argument = action
        self.sailed = False
        handler(self, argument, events)

    def _on_decline(self, _: None, events: list[Event]) -> None:
        self.declined = True
        self.sailed = False

    def _on_sail(self, leg: tuple[int, int], events: list[Event]) -> None:
        ship = self.ship
        space, cost = leg
        origin = ship.zone if ship.space is None else ship.space
        ship.zone = None
        ship.space = space
        self.points -= cost
        self.declined = False
        self.sailed = True
        events.append(
            Event(
                "ship_moved",
                {"seat": self.active, "ship": ship.ref, "from": origin, "to": space, "steps": cost},
            )
        )

    def _on_stop(self, _: None, events: list[Event]) -> None:
        ship = self.ship
        if ship.space is not None:
            self.at[ship.space] = ship
        self.activated.append(ship.ref)
        self.ship = None
        events.append(
            Event("ship_done", {"seat": self.active, "ship": ship.ref, "space": ship.space})
        )
        if self.waiting_ships():
            self._open_window("between", Stage.CHOOSE_SHIP)
        else:
            self._open_window("last", Stage.DRAW)

    # -- step 3: drawing (spec §5.7) ------------------------------------------------------

    def _offer_draw(self, events: list[Event]):
        player = self.seats[self.active]
        hand = player.mods.get("movement_hand", self.data.setup.movement_hand)
        self.draw_movement(player, hand - len(player.movement), events)
        icon = self.data.movement[self.played].icon
        if icon > 0:
            self.draw_fortune(player, icon + player.mods.get("fortune_draw_bonus", 0), events)
        self.discard_owed = -icon if icon < 0 else 0
        self.stage = Stage.DISCARD
        return None

    def fortune_limit(self, player: Player) -> int:
        return player.mods.get("fortune_limit", self.data.setup.fortune_limit)

    def _offer_discard(self, events: list[Event]):
        player = self.seats[self.active]
        if not player.fortune:
            self.discard_owed = 0
        if self.discard_owed or len(player.fortune) > self.fortune_limit(player):
            fortune = self.data.fortune
            return (
                "discard_fortune",
                [
                    (options.discard(c, fortune[c].title), BlackFleetState._on_discard, c)
                    for c in player.fortune
                ],
                False,
            )
        self.stage = Stage.BUY
        return None

    def _on_discard(self, card_id: str, events: list[Event]) -> None:
        reason = "icon" if self.discard_owed else "hand_limit"
        self.discard_owed = max(0, self.discard_owed - 1)
        self.seats[self.active].fortune.remove(card_id)
        self.fortune_discard.append(card_id)
        title = self.data.fortune[card_id].title
        events.append(
            Event(
                "fortune_discarded",
                {"seat": self.active, "card": card_id, "title": title, "reason": reason},
            )
        )

    # -- step 4: buying (spec §5.8, §11) --------------------------------------------------

    def _offer_buy(self, events: list[Event]):
        player = self.seats[self.active]
        development = self.data.development
        choices: list[Choice] = [(options.BUY_NONE, BlackFleetState._on_buy_none, None)]
        for cost, card_id in player.development.items():
            if cost not in player.bought and cost <= player.money:
                option = options.buy_development(cost, card_id, development[card_id].title)
                choices.append((option, BlackFleetState._on_buy_development, cost))
        ready = len(player.bought) == len(player.development) and not player.victory_bought
        if ready and player.victory_cost <= player.money:
            choices.append(
                (options.buy_victory(player.victory_cost), BlackFleetState._on_buy_victory, None)
            )
        return "buy", choices, True

    def _on_buy_none(self, _: None, events: list[Event]) -> None:
        self.stage = Stage.END

    def _on_buy_development(self, cost: int, events: list[Event]) -> None:
        """Pay and reveal; Trade Charter then asks for its port, Sea Charts draws a card."""
        player = self.seats[self.active]
        card = self.data.development[player.development[cost]]
        self.pay(player.seat, -cost, "development", events)
        player.bought.append(cost)
        player.refresh(self.data)
        public = {"seat": player.seat, "cost": cost, "card": card.id, "title": card.title}
        events.append(Event("development_bought", public))
        effects = {m.kind for m in card.effects}
        self.stage = Stage.NAME_PORT if "name_port_on_buy" in effects else Stage.END
        if "movement_hand" in effects:
            self.draw_movement(player, 1, events)

    def _on_buy_victory(self, _: None, events: list[Event]) -> None:
        player = self.seats[self.active]
        self.pay(player.seat, -player.victory_cost, "victory", events)
        player.victory_bought = True
        events.append(Event("victory_bought", {"seat": player.seat, "cost": player.victory_cost}))
        if not self.final_round:
            self.final_round = True
            events.append(Event("final_round", {"seat": player.seat, "round": self.round}))
        self.stage = Stage.END

    def _offer_name_port(self, events: list[Event]):
        ports = self.data.board.ports.values()
        return (
            "name_port",
            [(options.port(p.key, p.name), BlackFleetState._on_name_port, p.key) for p in ports],
            False,
        )

    def _on_name_port(self, key: str, events: list[Event]) -> None:
        self.seats[self.active].charter_port = key
        events.append(Event("port_named", {"seat": self.active, "port": key}))
        self.stage = Stage.END

    # -- end of turn and of game (spec §11) ----------------------------------------------

    def _offer_end(self, events: list[Event]):
        events.append(Event("turn_ended", {"seat": self.active, "turn": self.turn}))
        last = self.active == self.players - 1
        if last and (self.final_round or self.round >= self.round_cap):
            self._finish("victory" if self.final_round else "round_cap", events)
            return None
        if last:
            self.round += 1
        self._begin_turn((self.active + 1) % self.players, events)
        return None

    def ranking_key(self, player: Player) -> tuple[int, int, int]:
        """Victory card bought, then development cards bought, then doubloons (spec §11.3)."""
        return (int(player.victory_bought), len(player.bought), player.money)

    def _finish(self, reason: str, events: list[Event]) -> None:
        self.ended_by = reason
        self.stage = Stage.OVER
        self._outcome = Outcome.from_ranking(
            [self.ranking_key(p) for p in self.seats], [p.money for p in self.seats]
        )
        events.append(
            Event(
                "game_over",
                {
                    "reason": reason,
                    "places": list(self._outcome.places),
                    "scores": list(self._outcome.scores),
                    "rounds": self.round,
                },
            )
        )

    # -- shared mechanics used by actions and cards --------------------------------------

    def ships(self) -> dict[str, Ship]:
        """Every ship by its reference (`merchant:2`, `pirate:0`, `navy:yellow`)."""
        out = {navy.ref: navy for navy in self.navies.values()}
        for player in self.seats:
            out[player.merchant.ref] = player.merchant
            out[player.pirate.ref] = player.pirate
        return out

    def ship_by_ref(self, ref: str) -> Ship:
        ship = self._by_ref.get(ref)
        if ship is not None:
            return ship
        kind, who = ref.split(":")  # not a ship of this game: fails as it always did
        if kind == "navy":
            return self.navies[who]
        player = self.seats[int(who)]
        return player.merchant if kind == "merchant" else player.pirate

    def put(self, ship: Ship, space: int) -> None:
        """Place a resting ship on a free space."""
        if ship.space is not None and self.at.get(ship.space) is ship:
            del self.at[ship.space]
        ship.zone = None
        ship.space = space
        self.at[space] = ship

    def remove(self, ship: Ship) -> None:
        """Take a ship off the board (sunk); its cubes go back to their ports' stocks."""
        if ship.space is not None and self.at.get(ship.space) is ship:
            del self.at[ship.space]
        ship.space = None
        ship.zone = None
        self.return_cubes(ship.cargo)
        ship.cargo = []

    def return_cubes(self, cubes: list[str]) -> None:
        for colour in cubes:
            self.stock[colour] += 1

    def capacity(self, player: Player, kind: str) -> int:
        setup = self.data.setup
        base = setup.merchant_capacity if kind == "merchant" else setup.pirate_capacity
        return max(base, player.mods.get(_CAPACITY[kind], 0))

    def load(self, player: Player, port: Port, events: list[Event]) -> None:
        """Fill the merchant's hold with the port's colour, as far as its stock allows (§14.12)."""
        ship = player.merchant
        cubes = min(self.capacity(player, "merchant") - len(ship.cargo), self.stock[port.colour])
        self.stock[port.colour] -= cubes
        ship.cargo += [port.colour] * cubes
        events.append(
            Event(
                "merchant_loaded",
                {
                    "seat": player.seat,
                    "port": port.key,
                    "space": ship.space,
                    "colour": port.colour,
                    "cubes": cubes,
                },
            )
        )

    def place_pirate_on_lair(self, space: int, events: list[Event]) -> None:
        pirate = self.seats[self.active].pirate
        self.put(pirate, space)
        events.append(Event("pirate_placed", {"seat": self.active, "zone": None, "space": space}))

    def pay(self, seat: int, change: int, reason: str, events: list[Event]) -> None:
        """Change a seat's doubloons (negative = pay the bank); the bank is unlimited (§14.17)."""
        player = self.seats[seat]
        player.money += change
        events.append(
            Event(
                "money", {"seat": seat, "change": change, "total": player.money, "reason": reason}
            )
        )

    def transfer(
        self, source: int, target: int, amount: int, reason: str, events: list[Event]
    ) -> None:
        """Move up to `amount` doubloons between seats; never below zero (reconstruction §5.8)."""
        amount = min(amount, self.seats[source].money)
        if amount:
            self.pay(source, -amount, reason, events)
            self.pay(target, amount, reason, events)

    def _draw(
        self, deck: list[str], discard: list[str], name: str, events: list[Event]
    ) -> str | None:
        """The top card, reshuffling the discards when the deck is empty (spec §5.7)."""
        if not deck:
            if not discard:
                return None
            deck.extend(discard)
            discard.clear()
            self.rng.shuffle(deck)
            events.append(Event("deck_reshuffled", {"deck": name, "size": len(deck)}))
        return deck.pop()

    def draw_movement(self, player: Player, count: int, events: list[Event]) -> None:
        drawn = []
        for _ in range(count):
            card = self._draw(self.movement_deck, self.movement_discard, "movement", events)
            if card is None:
                break
            drawn.append(card)
        player.movement += drawn
        if drawn:
            public = {"seat": player.seat, "count": len(drawn)}
            tell(events, player.seat, "movement_drawn", {**public, "cards": drawn}, public)

    def draw_fortune(self, player: Player, count: int, events: list[Event]) -> None:
        drawn = []
        for _ in range(count):
            card = self._draw(self.fortune_deck, self.fortune_discard, "fortune", events)
            if card is None:
                break
            drawn.append(card)
        player.fortune += drawn
        if drawn:
            public = {"seat": player.seat, "count": len(drawn)}
            tell(events, player.seat, "fortune_drawn", {**public, "cards": drawn}, public)


_OVER, _PLACE = Stage.OVER, Stage.PLACE
_SETUP, _TURN = Window.SETUP, Window.TURN  # an enum member lookup costs a dict lookup or two
_CAPACITY = {kind: f"capacity.{kind}" for kind in ("merchant", "pirate", "navy")}
_STOP = (options.STOP, BlackFleetState._on_stop, None)
_OPTION = itemgetter(0)


_SAILS: list[dict[int, Choice]] = []
"""`_SAILS[space][steps]`: the shared choice of sailing `steps` to `space`, made on first use."""
_ACTIVATE: dict[str, Choice] = {}
"""`_ACTIVATE[ref]`: the shared choice of activating the ship `ref` (`merchant:0`...)."""


def _sail_choices(found: dict[int, int]) -> list[Choice]:
    """The choices of sailing to each space `found`, in its order.

    A random game hands out tens of thousands of the same few hundred choices, so
    they are made once and then looked up in plain lists and dicts (the cheapest
    lookups Python has); a miss fills the table and looks again.
    """
    sails = _SAILS
    try:
        return [sails[space][steps] for space, steps in found.items()]
    except (IndexError, KeyError):
        for space, steps in found.items():
            while len(sails) <= space:
                sails.append({})
            if steps not in sails[space]:
                option = options.move(space, steps)
                sails[space][steps] = (option, BlackFleetState._on_sail, (space, steps))
        return [sails[space][steps] for space, steps in found.items()]


def _activate_choices(ships: list[Ship]) -> list[Choice]:
    """The choices of activating each of `ships` (made once per ship reference, as above)."""
    try:
        return [_ACTIVATE[ship.ref] for ship in ships]
    except KeyError:
        for ship in ships:
            option = options.ship(ship.kind, ship.navy)
            _ACTIVATE[ship.ref] = (option, BlackFleetState._on_activate, ship.ref)
        return [_ACTIVATE[ship.ref] for ship in ships]


_OFFERS: dict[str, Callable[[BlackFleetState, list[Event]], Any]] = {
    Stage.PLACE: BlackFleetState._offer_place,
    Stage.REENTER_MERCHANT: BlackFleetState._offer_reenter_merchant,
    Stage.WINDOW: BlackFleetState._offer_window,
    Stage.REENTER_PIRATE: BlackFleetState._offer_reenter_pirate,
    Stage.PLAY: BlackFleetState._offer_play,
    Stage.CHOOSE_SHIP: BlackFleetState._offer_choose_ship,
    Stage.ACTIVATION: BlackFleetState._offer_activation,
    Stage.TARGET: BlackFleetState._offer_target,
    Stage.DESTINATION: BlackFleetState._offer_destination,
    Stage.CUBE: BlackFleetState._offer_cube,
    Stage.DRAW: BlackFleetState._offer_draw,
    Stage.DISCARD: BlackFleetState._offer_discard,
    Stage.BUY: BlackFleetState._offer_buy,
    Stage.NAME_PORT: BlackFleetState._offer_name_port,
    Stage.END: BlackFleetState._offer_end,
}
"""What each stage asks (or does automatically, returning None)."""
