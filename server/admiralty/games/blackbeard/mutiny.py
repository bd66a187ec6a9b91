"""Mutiny: a crew at Crew Loyalty 0 mutinies at the start of its owner's turn, when its
pirate is activated, at the end of his Action and after an act against him; Mutiny
Conspiracy makes one break out at any Loyalty [blackbeard §14.11, §R4.5]. A mutiny that
succeeds kills the captain, and a Pirate card of the owner's takes the ship
[blackbeard §14.12].
"""

from __future__ import annotations

from admiralty.games.base import Option
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.choices import pirate_option
from admiralty.games.blackbeard.pieces import Pirate
from admiralty.games.blackbeard.rolls import RollPoints
from admiralty.games.blackbeard.table import DATA, Table
from admiralty.games.flow import Flow, Step, step


class Mutiny:
    """Mutinies and the new captains they make."""

    flow: Flow

    def __init__(self, table: Table, rolls: RollPoints) -> None:
        self.table = table
        self.rolls = rolls

    def check(self, pid: str, when: str) -> Step:
        """The step where a crew still at Loyalty 0 mutinies (`when` names its roll)."""
        return step(self._mutiny, pid, when)

    def due(self, pirate: Pirate, when: str) -> list[Step]:
        """The checks of his alliance's crews at Loyalty 0: each mutinies as soon as what
        brought it there is complete [blackbeard §14.11, §11.13]."""
        return [
            self.check(each.id, when)
            for each in self.table.alliance(pirate)
            if each.ship.loyalty == 0
        ]

    def _mutiny(self, pid: str, when: str) -> None:
        """The owner rolls 1d6 against Leadership: above, the mutiny succeeds; equal,
        averted (Loyalty -1); below, crushed [blackbeard §14.12]."""
        pirate = self.table.pirates.get(pid)
        if pirate is not None and pirate.ship.loyalty == 0:
            self.mutiny_breaks_out(pid, when)

    def mutiny_breaks_out(self, pid: str, when: str) -> None:
        self.rolls.roll(pid, "mutiny", 1, False, step(self._mutiny_rolled, pid), name=(pid, when))

    def _mutiny_rolled(self, pid: str) -> None:
        table = self.table
        pirate = table.pirates.get(pid)
        if pirate is None:
            return
        roll = table.rolled["mutiny"]
        leadership = DATA.pirates[pid].leadership
        result = mech.mutiny(DATA, roll, leadership, pirate.ship.loyalty)
        self.flow.emit(
            "mutiny",
            {"pirate": pid, "roll": roll, "leadership": leadership, "result": result.result},
        )
        if result.result != mech.SUCCEEDED:
            pirate.ship.loyalty = result.loyalty
            return
        seat = pirate.owner
        cards = table.seats[seat].pirate_cards
        if cards:
            self.flow.ask(
                seat,
                table.window_of(seat),
                "new_captain",
                "Who takes command of the ship?",
                tuple(pirate_option(card) for card in cards),
                step(self._new_captain, pid, result.loyalty),
            )
        elif table.pirate_deck:
            card = table.pirate_deck.pop()
            self.flow.tell((seat,), "pirate_drawn", {"seat": seat, "card": card}, {"seat": seat})
            cards.append(card)
            self._new_captain(pirate_option(card), pid, result.loyalty)
        else:
            self.flow.emit("ship_lost", {"pirate": pid})
            table.eliminate(pirate, "mutiny")

    def _new_captain(self, option: Option, pid: str, loyalty: int) -> None:
        """The old captain is dead (case B); the new one keeps the ship, with Crew
        Loyalty 6 [blackbeard §14.12, §R18.12]."""
        table = self.table
        old = table.pirates[pid]
        card = option.payload["pirate"]
        ship = old.ship
        old.ship = table.new_ship(ship.type)  # the old record leaves with an empty ship
        table.eliminate(old, "mutiny")
        table.seats[old.owner].pirate_cards.remove(card)
        new = Pirate(
            card, old.owner, old.area, ship, port=old.port, deployed_turn=table.turn.number
        )
        table.pirates[card] = new
        new.ship.loyalty = loyalty
        self.flow.emit("new_captain", {"pirate": card, "replaces": pid, "seat": old.owner})
