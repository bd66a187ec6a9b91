"""A game in progress: setup and the turn [black_fleet §4, §5] as frames on the shared
decision flow (`admiralty.games.flow`).

`BlackFleetState` is a `Table` (the pieces and their mechanics) that runs its turn on a
`Flow`. A turn is pushed as a list of `Step` frames, each calling a method below:

    _reenter_merchant, _window("start"), _reenter_pirate, _play_movement,
    _window("first"), _choose_ship, _draw, _buy, _end_turn

and a step that needs a decision opens it with `flow.ask`; the answer calls the method
its option's step holds (`method(option, *args)`), which may push more frames. A fortune window
is a frame pushed before the step it precedes, so nothing has to remember where to go
back: after a ship's activation `_end_activation` pushes `_window("between")` and
`_choose_ship`, or `_window("last")` before the draw already waiting below. An
activation is `_activation(declined, sailed)`, which asks for the ship's next action or
leg; each answer's handler goes on with it at once, as its frame on top would.

A request with one legal option is applied at once (the flow does it), so a bot is only
asked when it has a real choice. The exception is a fortune window: it is published
whenever the active seat holds a fortune card, even with `pass` alone, so that whether
it opens tells the other seats nothing about that hand (the referee applies a lone
option itself). Only this module writes the turn's state (`current`, a `Turn`).
"""

from __future__ import annotations

import copy
import random
from functools import cached_property
from typing import Any

from admiralty.games.base import Option, Outcome, Window
from admiralty.games.black_fleet import actions, cards, movement, options, view
from admiralty.games.black_fleet.data import WINDOWS, GameData
from admiralty.games.black_fleet.options import BUY_NONE, PASS, STOP, SWAP
from admiralty.games.black_fleet.pieces import Player, Ship
from admiralty.games.black_fleet.table import Table
from admiralty.games.black_fleet.turn import Turn
from admiralty.games.chance import Chance
from admiralty.games.determinize import fresh_chance, redeal
from admiralty.games.flow import FlowState, Step, is_step, step

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
_SETUP, _TURN = Window.SETUP, Window.TURN  # an enum member lookup costs a dict lookup or two
_CHOOSE_ACTION_PROMPT, _MOVE_SHIP_PROMPT = _PROMPTS["choose_action"], _PROMPTS["move_ship"]
_PLAY_FORTUNE_PROMPT = _PROMPTS["play_fortune"]
_PASS_ALONE = (PASS,)


class BlackFleetState(Table, FlowState):
    """One game of Black Fleet for 3 or 4 seats; seat 0 holds black and starts."""

    def __init__(
        self, data: GameData, players: int, seed: int, victory_costs: list[int], round_cap: int
    ):
        super().__init__(data, players, Chance(seed), victory_costs)
        self.round_cap = round_cap
        self.round = 1
        self.turn = 0
        """Turns begun so far, all seats together."""
        self.active = 0
        self.final_round = False
        self.ended_by: str | None = None
        self.current = Turn()
        self._outcome: Outcome | None = None
        self.steps = Steps(self)
        self.flow.emit(
            "game_started",
            {
                "players": players,
                "colours": [p.colour for p in self.seats],
                "first_seat": 0,
                "victory_costs": [p.victory_cost for p in self.seats],
                "money": [p.money for p in self.seats],
                "round_cap": round_cap,
            },
        )
        self.deal()
        self.flow.push(
            *[step(self._place, seat) for seat in range(players)], step(self._begin_turn, 0)
        )
        self.flow.run()
        self._setup_events = self.flow.events

    # -- the engine contract -----------------------------------------------------------

    def outcome(self) -> Outcome | None:
        return self._outcome

    def view(self, viewer: int | None) -> dict[str, Any]:
        return view.view(self, viewer)

    def snapshot(self) -> dict[str, Any]:
        return view.snapshot(self)

    def static_info(self) -> dict[str, Any]:
        return view.static_info(self.data)

    def clone(self) -> BlackFleetState:
        other = copy.copy(self)
        self.copy_pieces(other)
        other.current = self.current.copy(other._by_ref)
        other.flow = self.flow.copy((self, other))
        other.steps = Steps(other)
        return other

    def determinize(self, seat: int, rng: random.Random) -> BlackFleetState:
        """Deal again what `seat` cannot see [black_fleet §9]: the other seats' movement
        and fortune hands with the order of their decks, the other seats' unbought
        development cards of each cost with the box's, and the chance. An open request of
        another seat that lists its cards is opened again from the new deal."""
        new = self.clone()
        new.chance = fresh_chance(rng)
        others = [player for player in new.seats if player.seat != seat]
        for hand, deck in (("movement", new.movement_deck), ("fortune", new.fortune_deck)):
            redeal(rng, [*((getattr(player, hand), None) for player in others), (deck, None)])
        box = []
        for cost in self.data.setup.development_costs:
            slots = {
                player.seat: [player.development[cost]]
                for player in others
                if cost not in player.bought
            }
            spare = [card for card in new.box if self.data.development[card].cost == cost]
            redeal(rng, [*((slot, None) for slot in slots.values()), (spare, None)])
            for other, (card,) in slots.items():
                new.seats[other].development[cost] = card
            box += spare
        new.box = box
        asked = new.flow.asked
        if asked is not None and asked.request.seat != seat:
            new.ask_again()
        return new

    # -- positions built by hand ---------------------------------------------------------

    def ask_again(self) -> None:
        """Open the pending request again, with the same window id, from the position as
        it is now: for twin positions whose hidden cards were changed by hand, when the
        request lists the active seat's cards (a fortune window, its movement hand, a
        discard, a purchase)."""
        asked = self.flow.asked
        if asked is None:
            return
        kind, then = asked.request.kind, asked.then
        if kind == "play_fortune":
            frame = step(self._window, self.current.window)
        elif kind == "play_movement":
            frame = step(self._play_movement)
        elif kind == "buy":
            frame = step(self._buy)
        elif kind == "discard_fortune" and is_step(then):
            frame = step(self._discard, *then[1])
        else:
            return
        self.flow.withdraw()
        self.flow.push(frame)
        self.flow.run()

    # -- setup placement [black_fleet §4.1] step 9 ---------------------------------------

    def _place(self, seat: int) -> None:
        self.flow.ask(
            seat,
            _SETUP,
            "place_merchant",
            _PROMPTS["place_merchant"],
            self._placements(),
            step(self._placed, seat),
        )

    def _placements(self) -> tuple[Option, ...]:
        """Every free space next to a port that still has cubes to load [black_fleet G12],
        [black_fleet G13]."""
        at, stock = self.at, self.stock
        return tuple(
            [
                options.place(port.key, port.name, port.colour, space)
                for port in self.data.board.ports.values()
                if stock[port.colour]
                for space in port.adjacent
                if space not in at
            ]
        )

    def _placed(self, option: Option, seat: int) -> None:
        player = self.seats[seat]
        self.put(player.merchant, option.payload["space"])
        self.load(player, self.data.board.ports[option.payload["port"]])

    # -- step 0: start of turn [black_fleet §5.0] ----------------------------------------

    def _begin_turn(self, seat: int) -> None:
        self.current = Turn()
        self.active = seat
        self.turn += 1
        player = self.seats[seat]
        if player.boosts:
            player.boosts.clear()
            player.refresh(self.data)
        self.flow.emit("turn_started", {"seat": seat, "turn": self.turn, "round": self.round})
        income = player.mods.get("turn_income", 0)
        if income:
            self.pay(seat, income, "turn_income")
        windows = bool(player.fortune) or bool(player.mods.get("swap_own_ships"))
        self.flow.push(
            *self.steps.turn(player.merchant.space is None, windows, not player.pirate.in_play)
        )

    def _turn_steps(self, merchant_out: bool, windows: bool, pirate_out: bool) -> tuple[Step, ...]:
        """The frames of a turn [black_fleet §5, §11] as pushed when it begins, without
        those that could only pass: re-entering a ship that is in play, and the fortune
        windows while the seat holds no fortune card and cannot swap its ships (no card
        reaches its hand before step 3, so the windows up to the first activation could
        not open). Made once per game for each case (`Steps.turn`)."""
        steps = [
            step(self._reenter_merchant) if merchant_out else None,
            step(self._window, "start") if windows else None,
            step(self._reenter_pirate) if pirate_out else None,  # Hideout in W0 may place it
            step(self._play_movement),
            step(self._window, "first") if windows else None,
            step(self._choose_ship),
            step(self._draw),
            step(self._buy),
            step(self._end_turn),
        ]
        return tuple([frame for frame in steps if frame is not None])

    def _reenter_merchant(self) -> None:
        active = self.active
        if self.seats[active].merchant.space is not None:
            return
        placements = self._placements()
        if placements:
            self.flow.ask(
                active,
                _TURN,
                "reenter_merchant",
                _PROMPTS["reenter_merchant"],
                placements,
                step(self._placed, active),
            )
        else:
            self.flow.emit("merchant_stays_out", {"seat": active})

    def _reenter_pirate(self) -> None:
        player = self.seats[self.active]
        if player.pirate.in_play:
            return
        board = self.data.board
        choices = [options.zone(key) for key in board.zones]
        then = [step(self._zone)] * len(choices)
        if player.mods.get("reenter_at_lair"):
            lairs = [options.lair(space) for space in board.lairs if space not in self.at]
            choices += lairs
            then += [step(self._lair)] * len(lairs)
        self.flow.ask(
            self.active,
            _TURN,
            "reenter_pirate",
            _PROMPTS["reenter_pirate"],
            tuple(choices),
            tuple(then),
        )

    def _zone(self, option: Option) -> None:
        key = option.payload["zone"]
        self.seats[self.active].pirate.zone = key
        self.flow.emit("pirate_placed", {"seat": self.active, "zone": key, "space": None})

    def _lair(self, option: Option) -> None:
        self.place_pirate_on_lair(self.active, option.payload["space"])

    # -- fortune windows [black_fleet §5.6, §R3.1] ----------------------------------------

    def _window(self, name: str) -> None:
        """A fortune window: published whenever the active seat holds a fortune card.

        Whether it opens depends only on what every seat sees [black_fleet §9]: the others
        see the size of a fortune hand, not the cards. With cards in hand it opens even if
        none of them can be played here, `pass` then being its only option. Opening it
        only for a playable card would tell the table which cards the seat holds.
        """
        choices = cards.window_options(self, name)
        if not choices and not self.seats[self.active].fortune:
            return
        self.current.window = name
        if not choices:
            self.flow.ask(
                self.active,
                _TURN,
                "play_fortune",
                _PLAY_FORTUNE_PROMPT,
                _PASS_ALONE,
                self.steps.pass_,
                optional=True,
                publish=True,
            )
            return
        play, swap = self.steps.plays[name], self.steps.swaps[name]
        self.flow.ask(
            self.active,
            _TURN,
            "play_fortune",
            _PLAY_FORTUNE_PROMPT,
            (PASS, *choices),
            (self.steps.pass_, *[swap if o is SWAP else play for o in choices]),
            optional=True,
            publish=True,
        )

    def _pass(self, option: Option) -> None:
        """Nothing to do: the next frame runs (the window closes, nothing is bought)."""

    def _play_fortune(self, option: Option, window: str) -> None:
        """Play the card, resolve its target if it has one, then open the window again."""
        card_id = option.payload["card"]
        self.flow.push(self.steps.windows[window])
        needs_target = cards.play(self, card_id)
        if self.current.played is not None and self.data.fortune[card_id].effect == "boost":
            self._refresh_control()  # Bribed Admiral gives the other navy
        if needs_target:
            self._choose_target(card_id)

    def _swap(self, option: Option, window: str) -> None:
        cards.swap_ships(self)
        self.current.swapped = True
        self.flow.push(self.steps.windows[window])

    def _choose_target(self, card_id: str) -> None:
        effect = self.data.fortune[card_id].effect
        found = cards.targets(self, card_id)
        then: Step | tuple[Step, ...]
        if effect == "steal":
            choices = tuple([options.target("seat", seat) for seat in found])
            then = step(self._steal, card_id)
        elif effect == "pirate_to_lair":
            choices = tuple([options.target("lair", space) for space in found])
            then = step(self._hide)
        else:  # free_move: a ship, then where it goes
            choices = tuple([options.target(kind, who) for kind, who in found])
            then = tuple([step(self._pick_ship, card_id, f"{kind}:{who}") for kind, who in found])
        self.flow.ask(self.active, _TURN, "choose_target", _PROMPTS["choose_target"], choices, then)

    def _steal(self, option: Option, card_id: str) -> None:
        cards.steal_from(self, card_id, option.payload["seat"])

    def _hide(self, option: Option) -> None:
        cards.hide_pirate(self, option.payload["space"])

    def _pick_ship(self, option: Option, card_id: str, ref: str) -> None:
        self.flow.ask(
            self.active,
            _TURN,
            "choose_destination",
            _PROMPTS["choose_destination"],
            cards.destination_options(self, card_id, ref),
            step(self._free_move, card_id, ref),
        )

    def _free_move(self, option: Option, card_id: str, ref: str) -> None:
        payload = option.payload
        cards.free_move(self, card_id, ref, payload["space"], payload["steps"])

    # -- step 1: the movement card [black_fleet §5.1] ------------------------------------

    def _play_movement(self) -> None:
        movement_cards = self.data.movement
        choices = []
        for card_id in self.seats[self.active].movement:
            c = movement_cards[card_id]
            choices.append(
                options.movement_card(c.id, c.navy, c.navy_move, c.pirate, c.merchant, c.fortune)
            )
        self.flow.ask(
            self.active,
            _TURN,
            "play_movement",
            _PROMPTS["play_movement"],
            tuple(choices),
            step(self._played),
        )

    def _played(self, option: Option) -> None:
        card_id = option.payload["card"]
        self.seats[self.active].movement.remove(card_id)
        self.movement_discard.append(card_id)
        self.current.played = card_id
        self._refresh_control()
        card = self.data.movement[card_id]
        self.flow.emit("movement_played", {"seat": self.active, **card.to_json()})

    def _refresh_control(self) -> None:
        """The navy ships the active player moves this turn: the card's, or both
        [black_fleet §5.3]."""
        current = self.current
        assert current.played is not None
        mods = self.seats[self.active].mods
        named = self.data.movement[current.played].navy
        both = mods.get("both_navies") or mods.get("extra_navy")
        current.controlled = tuple(self.navies) if both else (named,)

    # -- step 2: ship activations [black_fleet §5.2, §5.3, §5.4, §5.5] -------------------

    def waiting_ships(self) -> list[Ship]:
        """The ships the active player may still activate this turn."""
        player = self.seats[self.active]
        current = self.current
        merchant, pirate, done = player.merchant, player.pirate, current.activated
        ships = [merchant] if merchant.space is not None and merchant.ref not in done else []
        if pirate.ref not in done and (pirate.space is not None or pirate.zone is not None):
            ships.append(pirate)
        for colour in current.controlled:
            navy = self.navies[colour]
            if navy.ref not in done:
                ships.append(navy)
        return ships

    def _choose_ship(self) -> None:
        choices, then = self.steps.activations(tuple([ship.ref for ship in self.waiting_ships()]))
        self.flow.ask(self.active, _TURN, "choose_ship", _PROMPTS["choose_ship"], choices, then)

    def _activate(self, option: Option, ref: str) -> None:
        ship = self._by_ref[ref]
        current = self.current
        current.ship = ship
        current.points = points = movement.allowance(self, ship)
        if (
            ship.navy is not None
            and not current.next_navy_spent
            and self.seats[self.active].mods.get("move_bonus.next_navy", 0)
        ):
            current.next_navy_spent = True  # Signal Flags helped this navy, and no other
        current.acts = []
        if ship.space is not None:
            del self.at[ship.space]
        self.flow.emit("ship_activated", {"seat": self.active, "ship": ref, "points": points})
        self._activation(False, False)

    def _activation(self, declined: bool, sailed: bool) -> None:
        """Act here, or sail on; after a leg with nothing to do on a free space, the ship stops.

        Sailing X then Y is the same as sailing to Y directly, so a leg only ends
        short of the activation's end when the ship can act where it arrives; this
        keeps each activation to the choices that matter. `declined`: the ship passed
        the action offered here; `sailed`: it has just arrived here.
        """
        ship = self.current.ship
        assert ship is not None
        space = ship.space
        if not declined and space is not None:
            acting = actions.BY_KIND[ship.kind](self, self.seats[self.active], ship, space)
            if acting:
                self.flow.ask(
                    self.active,
                    _TURN,
                    "choose_action",
                    _CHOOSE_ACTION_PROMPT,
                    (PASS, *acting),
                    self.steps.acts(len(acting)),
                    optional=True,
                )
                return
        free = space not in self.at
        if sailed and free:
            self._end_activation()
            return
        sails = movement.sail_options(self, ship)
        if free:
            self.flow.ask(
                self.active,
                _TURN,
                "move_ship",
                _MOVE_SHIP_PROMPT,
                (STOP, *sails),
                self.steps.sails(len(sails)),
            )
        else:
            self.flow.ask(
                self.active, _TURN, "move_ship", _MOVE_SHIP_PROMPT, tuple(sails), self.steps.sail
            )

    def _act(self, option: Option) -> None:
        """Take the action of the option's payload [black_fleet §5.3, §5.4, §5.5]."""
        payload = option.payload
        kind = payload["action"]
        subject: Any = payload.get("seat")
        if subject is None:
            subject = payload.get("port")
        current = self.current
        if kind == "broadside":
            current.broadside_used = True  # once per turn, and not an action
        else:
            current.acts.append(kind)
        if kind == "attack_pirate" and actions.may_rob(self, subject):
            self.flow.push(step(self._activation, False, False))  # once the cube is chosen
            self.flow.ask(
                self.active,
                _TURN,
                "choose_target",
                _PROMPTS["choose_target"],
                actions.cube_options(self, subject),
                step(self._rob, subject),
            )
            return
        deed = actions.EFFECTS[kind](self, subject)
        if deed is not None:
            current.log.append(deed)
        self._activation(False, False)

    def _rob(self, option: Option, seat: int) -> None:
        actions.rob(self, seat, option.payload["colour"])

    def _decline(self, option: Option) -> None:
        self._activation(True, False)

    def _sail(self, option: Option) -> None:
        payload = option.payload
        space, cost = payload["space"], payload["steps"]
        current = self.current
        ship = current.ship
        assert ship is not None
        origin = ship.zone if ship.space is None else ship.space
        ship.zone = None
        ship.space = space
        current.points -= cost
        self.flow.emit(
            "ship_moved",
            {"seat": self.active, "ship": ship.ref, "from": origin, "to": space, "steps": cost},
        )
        self._activation(False, True)

    def _stop(self, option: Option) -> None:
        self._end_activation()

    def _end_activation(self) -> None:
        """The ship rests where it is; then a fortune window, and the next ship if any."""
        current = self.current
        ship = current.ship
        assert ship is not None
        if ship.space is not None:
            self.at[ship.space] = ship
        current.activated.append(ship.ref)
        current.ship = None
        self.flow.emit("ship_done", {"seat": self.active, "ship": ship.ref, "space": ship.space})
        player = self.seats[self.active]
        done = current.activated
        merchant, pirate = player.merchant, player.pirate
        waiting = (  # whether `waiting_ships` would list any
            (merchant.space is not None and merchant.ref not in done)
            or (pirate.ref not in done and (pirate.space is not None or pirate.zone is not None))
        )
        if not waiting:
            for colour in current.controlled:
                if self.navies[colour].ref not in done:
                    waiting = True
                    break
        if waiting:
            self.flow.push(self.steps.choose_ship)
        if player.fortune or player.mods.get("swap_own_ships"):  # else it could only pass
            self.flow.push(self.steps.windows["between" if waiting else "last"])

    # -- step 3: drawing [black_fleet §5.7] ----------------------------------------------

    def _draw(self) -> None:
        player = self.seats[self.active]
        hand = player.mods.get("movement_hand", self.data.setup.movement_hand)
        self.draw_movement(player, hand - len(player.movement))
        assert self.current.played is not None
        icon = self.data.movement[self.current.played].icon
        if icon > 0:
            self.draw_fortune(player, icon + player.mods.get("fortune_draw_bonus", 0))
        self._discard(-icon if icon < 0 else 0)

    def _discard(self, owed: int) -> None:
        """`owed` cards to discard for the icon, then down to the hand limit
        [black_fleet G15]."""
        player = self.seats[self.active]
        if not player.fortune:
            return
        if owed or len(player.fortune) > self.fortune_limit(player):
            fortune = self.data.fortune
            self.flow.ask(
                self.active,
                _TURN,
                "discard_fortune",
                _PROMPTS["discard_fortune"],
                tuple([options.discard(c, fortune[c].title) for c in player.fortune]),
                step(self._discarded, owed),
            )

    def _discarded(self, option: Option, owed: int) -> None:
        card_id = option.payload["card"]
        self.seats[self.active].fortune.remove(card_id)
        self.fortune_discard.append(card_id)
        self.flow.emit(
            "fortune_discarded",
            {
                "seat": self.active,
                "card": card_id,
                "title": option.payload["title"],
                "reason": "icon" if owed else "hand_limit",
            },
        )
        self._discard(max(0, owed - 1))

    # -- step 4: buying [black_fleet §5.8, §11] -------------------------------------------

    def _buy(self) -> None:
        player = self.seats[self.active]
        development = self.data.development
        choices = [BUY_NONE]
        then = [step(self._pass)]
        for cost, card_id in player.development.items():
            if cost not in player.bought and cost <= player.money:
                choices.append(options.buy_development(cost, card_id, development[card_id].title))
                then.append(step(self._buy_development))
        ready = len(player.bought) == len(player.development) and not player.victory_bought
        if ready and player.victory_cost <= player.money:
            choices.append(options.buy_victory(player.victory_cost))
            then.append(step(self._buy_victory))
        if len(choices) > 1:  # buying nothing is no choice
            self.flow.ask(
                self.active,
                _TURN,
                "buy",
                _PROMPTS["buy"],
                tuple(choices),
                tuple(then),
                optional=True,
            )

    def _buy_development(self, option: Option) -> None:
        """Pay and reveal; Trade Charter then asks for its port, Sea Charts draws a card."""
        player = self.seats[self.active]
        cost = option.payload["cost"]
        card = self.data.development[player.development[cost]]
        self.pay(player.seat, -cost, "development")
        player.bought.append(cost)
        player.refresh(self.data)
        public = {"seat": player.seat, "cost": cost, "card": card.id, "title": card.title}
        self.flow.emit("development_bought", public)
        effects = {m.kind for m in card.effects}
        if "name_port_on_buy" in effects:
            self.flow.push(step(self._name_port))
        if "movement_hand" in effects:
            self.draw_movement(player, 1)

    def _buy_victory(self, option: Option) -> None:
        player = self.seats[self.active]
        self.pay(player.seat, -player.victory_cost, "victory")
        player.victory_bought = True
        self.flow.emit("victory_bought", {"seat": player.seat, "cost": player.victory_cost})
        if not self.final_round:
            self.final_round = True
            self.flow.emit("final_round", {"seat": player.seat, "round": self.round})

    def _name_port(self) -> None:
        ports = self.data.board.ports.values()
        self.flow.ask(
            self.active,
            _TURN,
            "name_port",
            _PROMPTS["name_port"],
            tuple([options.port(p.key, p.name) for p in ports]),
            step(self._port_named),
        )

    def _port_named(self, option: Option) -> None:
        key = option.payload["port"]
        self.seats[self.active].charter_port = key
        self.flow.emit("port_named", {"seat": self.active, "port": key})

    # -- end of turn and of game [black_fleet §11] ----------------------------------------

    def _end_turn(self) -> None:
        self.flow.emit("turn_ended", {"seat": self.active, "turn": self.turn})
        last = self.active == self.players - 1
        if last and (self.final_round or self.round >= self.round_cap):
            self._finish("victory" if self.final_round else "round_cap")
            return
        if last:
            self.round += 1
        self._begin_turn((self.active + 1) % self.players)

    def ranking_key(self, player: Player) -> tuple[int, int, int]:
        """Victory card bought, then development cards bought, then doubloons
        [black_fleet §11.3]."""
        return (int(player.victory_bought), len(player.bought), player.money)

    def _finish(self, reason: str) -> None:
        self.ended_by = reason
        self.flow.stop()
        outcome = self._outcome = Outcome.from_ranking(
            [self.ranking_key(p) for p in self.seats], [p.money for p in self.seats]
        )
        self.flow.emit(
            "game_over",
            {
                "reason": reason,
                "places": list(outcome.places),
                "scores": list(outcome.scores),
                "rounds": self.round,
            },
        )


class Steps:
    """The steps a game takes again and again (every turn, activation or fortune window),
    each made the first time it is taken and kept for the game: a step holds the method
    bound to its state, so they cannot be shared between games, and a copy of a game starts
    its own."""

    def __init__(self, state: BlackFleetState) -> None:
        self.state = state
        self._turns: dict[tuple[bool, bool, bool], tuple[Step, ...]] = {}
        self._activations: dict[tuple[str, ...], tuple[tuple[Option, ...], tuple[Step, ...]]] = {}
        self._acts: dict[int, tuple[Step, ...]] = {}
        self._sails: dict[int, tuple[Step, ...]] = {}

    def turn(self, merchant_out: bool, windows: bool, pirate_out: bool) -> tuple[Step, ...]:
        """The frames of a turn (`BlackFleetState._turn_steps`)."""
        flags = (merchant_out, windows, pirate_out)
        made = self._turns.get(flags)
        if made is None:
            made = self._turns[flags] = self.state._turn_steps(*flags)
        return made

    def activations(self, refs: tuple[str, ...]) -> tuple[tuple[Option, ...], tuple[Step, ...]]:
        """The options and steps of activating each of the ships `refs`."""
        made = self._activations.get(refs)
        if made is None:
            ships = [self.state._by_ref[ref] for ref in refs]
            made = self._activations[refs] = (
                tuple([options.ship(ship.kind, ship.navy) for ship in ships]),
                tuple([step(self.state._activate, ref) for ref in refs]),
            )
        return made

    def acts(self, count: int) -> tuple[Step, ...]:
        """`pass` then `count` actions: what a `choose_action` request's options call."""
        made = self._acts.get(count)
        if made is None:
            made = self._acts[count] = (step(self.state._decline), *(self.act,) * count)
        return made

    def sails(self, count: int) -> tuple[Step, ...]:
        """`stop` then `count` sails: what a `move_ship` request's options call."""
        made = self._sails.get(count)
        if made is None:
            made = self._sails[count] = (step(self.state._stop), *(self.sail,) * count)
        return made

    @cached_property
    def windows(self) -> dict[str, Step]:
        """By name, a fortune window."""
        return {name: step(self.state._window, name) for name in WINDOWS}

    @cached_property
    def plays(self) -> dict[str, Step]:
        """By window, playing a fortune card in it."""
        return {name: step(self.state._play_fortune, name) for name in WINDOWS}

    @cached_property
    def swaps(self) -> dict[str, Step]:
        """By window, swapping the seat's ships in it."""
        return {name: step(self.state._swap, name) for name in WINDOWS}

    @cached_property
    def pass_(self) -> Step:
        return step(self.state._pass)

    @cached_property
    def choose_ship(self) -> Step:
        return step(self.state._choose_ship)

    @cached_property
    def act(self) -> Step:
        return step(self.state._act)

    @cached_property
    def sail(self) -> Step:
        return step(self.state._sail)
