"""The table: every piece of one game and the mechanics that move them.

Ships on the sea, cubes in the ports' stocks and holds, doubloons, the decks, their
discard piles and the box of unused development cards, with what changes them: placing
and sinking ships, loading cubes, paying, drawing and reshuffling. It knows nothing of
whose turn it is or what is asked next: that is the state (`state.py`), which is a
`Table` and runs the flow that calls these mechanics. They tell what they did through the
flow (`Flow.emit`, `Flow.tell`), which starts its events afresh for each answer.

Every random draw comes from a named chance stream [black_fleet §10]:

- `("colours",)`: the colours of seats 1-3 (seat 0 is always black);
- `("development", cost)`: the pile of development cards of that cost, dealt seat by seat;
- `("movement", k)` and `("fortune", k)`: the k-th shuffle of that deck, the deal's
  being shuffle 0 and each reshuffle of its discards [black_fleet §5.7] the next.

A shuffle ranks *every* card of its deck by its place in the stream's shuffle of the whole
deck and puts the cards shuffled in rank order, so their order depends on the seed and `k`
alone: two games on one seed see the cards they both reshuffle in the same order, whatever
was decided before.
"""

from __future__ import annotations

from admiralty.games.black_fleet.board import Port
from admiralty.games.black_fleet.data import GameData
from admiralty.games.black_fleet.pieces import Player, Ship
from admiralty.games.chance import Chance
from admiralty.games.flow import Flow

_CAPACITY = {kind: f"capacity.{kind}" for kind in ("merchant", "pirate", "navy")}
_DECKS = ("movement", "fortune")


class Table:
    """The pieces of one game of Black Fleet and the mechanics that move them."""

    def __init__(self, data: GameData, players: int, chance: Chance, victory_costs: list[int]):
        setup = data.setup
        self.data = data
        self.players = players
        self.chance = chance
        """The game's named chance streams; immutable, so clones share it."""
        colours = chance.shuffled(setup.colours[1:], "colours")
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
        """The development cards dealt to nobody, face down."""
        self.shuffles = dict.fromkeys(_DECKS, 0)
        """How many times each deck has been shuffled (the deal's shuffle included)."""
        self.flow = Flow()
        """The game's decisions, run by the state; the mechanics tell it what they did."""

    def deal(self) -> None:
        """Navies, development cards, shuffled decks, fortune and movement hands
        [black_fleet §4.1]."""
        data = self.data
        setup = data.setup
        for colour, navy in self.navies.items():
            self.put(navy, data.board.navy_start[colour])
        for cost in setup.development_costs:
            pile = self.chance.shuffled(data.development_by_cost(cost), "development", cost)
            for player in self.seats:
                player.development[cost] = pile.pop()
            self.box.extend(pile)
        self.fortune_deck = self.shuffle("fortune", list(data.fortune))
        self.movement_deck = self.shuffle("movement", list(data.movement))
        costs = list(setup.development_costs)
        for player in self.seats:
            dealt = [player.development[cost] for cost in costs]
            self.flow.tell(
                (player.seat,),
                "development_dealt",
                {"seat": player.seat, "cards": dealt},
                {"seat": player.seat, "costs": costs},
            )
            self.draw_fortune(player, setup.fortune_start)
            self.draw_movement(player, setup.movement_hand)

    def copy_pieces(self, other: Table) -> None:
        """Make `other`, a shallow copy of this table, independent: every list and dict
        is copied, the players and ships one by one (the `chance` and data are shared)."""
        for name, value in self.__dict__.items():
            if type(value) is list or type(value) is dict:
                setattr(other, name, value.copy())
        other.seats = [player.copy() for player in self.seats]
        other.navies = {colour: navy.copy() for colour, navy in self.navies.items()}
        ships = other._by_ref = other.ships()
        other.at = {space: ships[ship.ref] for space, ship in self.at.items()}

    # -- ships ---------------------------------------------------------------------------

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

    def place_pirate_on_lair(self, seat: int, space: int) -> None:
        pirate = self.seats[seat].pirate
        self.put(pirate, space)
        self.flow.emit("pirate_placed", {"seat": seat, "zone": None, "space": space})

    # -- cubes ---------------------------------------------------------------------------

    def return_cubes(self, cubes: list[str]) -> None:
        for colour in cubes:
            self.stock[colour] += 1

    def capacity(self, player: Player, kind: str) -> int:
        setup = self.data.setup
        base = setup.merchant_capacity if kind == "merchant" else setup.pirate_capacity
        return max(base, player.mods.get(_CAPACITY[kind], 0))

    def load(self, player: Player, port: Port) -> None:
        """Fill the merchant's hold with the port's colour, as far as its stock allows
        [black_fleet G12]."""
        ship = player.merchant
        cubes = min(self.capacity(player, "merchant") - len(ship.cargo), self.stock[port.colour])
        self.stock[port.colour] -= cubes
        ship.cargo += [port.colour] * cubes
        self.flow.emit(
            "merchant_loaded",
            {
                "seat": player.seat,
                "port": port.key,
                "space": ship.space,
                "colour": port.colour,
                "cubes": cubes,
            },
        )

    # -- money ---------------------------------------------------------------------------

    def pay(self, seat: int, change: int, reason: str) -> None:
        """Change a seat's doubloons (negative = pay the bank); the bank is unlimited
        [black_fleet G17]."""
        player = self.seats[seat]
        player.money += change
        self.flow.emit(
            "money", {"seat": seat, "change": change, "total": player.money, "reason": reason}
        )

    def transfer(self, source: int, target: int, amount: int, reason: str) -> None:
        """Move up to `amount` doubloons between seats; never below zero [black_fleet §R5.8]."""
        amount = min(amount, self.seats[source].money)
        if amount:
            self.pay(source, -amount, reason)
            self.pay(target, amount, reason)

    # -- cards ---------------------------------------------------------------------------

    def fortune_limit(self, player: Player) -> int:
        return player.mods.get("fortune_limit", self.data.setup.fortune_limit)

    def shuffle(self, deck: str, cards: list[str]) -> list[str]:
        """`cards` of `deck` in the order of that deck's next shuffle (see the module);
        counts the shuffle."""
        k = self.shuffles[deck]
        self.shuffles[deck] = k + 1
        every = self.chance.shuffled(
            self.data.movement if deck == "movement" else self.data.fortune, deck, k
        )
        rank = dict(zip(every, range(len(every)), strict=True))
        return sorted(cards, key=rank.__getitem__)

    def _top_card(self, deck: list[str], discard: list[str], name: str) -> str | None:
        """The top card, reshuffling the discards when the deck is empty
        [black_fleet §5.7, G16]."""
        if not deck:
            if not discard:
                return None
            deck[:] = self.shuffle(name, discard)
            discard.clear()
            self.flow.emit("deck_reshuffled", {"deck": name, "size": len(deck)})
        return deck.pop()

    def draw_movement(self, player: Player, count: int) -> None:
        drawn = []
        for _ in range(count):
            deck = self.movement_deck
            card = deck.pop() if deck else self._top_card(deck, self.movement_discard, "movement")
            if card is None:
                break
            drawn.append(card)
        player.movement += drawn
        if drawn:
            public = {"seat": player.seat, "count": len(drawn)}
            self.flow.tell((player.seat,), "movement_drawn", {**public, "cards": drawn}, public)

    def draw_fortune(self, player: Player, count: int) -> None:
        drawn = []
        for _ in range(count):
            deck = self.fortune_deck
            card = deck.pop() if deck else self._top_card(deck, self.fortune_discard, "fortune")
            if card is None:
                break
            drawn.append(card)
        player.fortune += drawn
        if drawn:
            public = {"seat": player.seat, "count": len(drawn)}
            self.flow.tell((player.seat,), "fortune_drawn", {**public, "cards": drawn}, public)
