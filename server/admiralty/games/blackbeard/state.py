"""A game of Blackbeard in progress: the table, the collaborators that run the rules on it,
and the flow of decisions that calls them.

Every fact of the game that changes is on the table (`table.Table`): the pieces, the turn
marker, the anti-pirate side's interference. The collaborators hold none; each is given
the table and the collaborators it calls when it is built, so a copy of the game is a copy
of the table with collaborators built afresh on it:

- `setup.Setup`: setup, and the deployment questions [blackbeard §3.0];
- `turns.Turns`: the Player Turn, card play and the announcement of each Action
  [blackbeard §4.3, §4.4, §4.5];
- `actions.PirateActions`, `loot.Loot`, `inport.InPort`, `raids.Raids`: the Pirate
  Actions;
- `antipirate.AntiPirate`, `fights.Fights`, `apcards.ApCards`: the anti-pirate side, its
  windows, fights and cards; `crown.Crown` in solitaire [blackbeard §R19];
- `cards.EventCards`: the Pirate Player's own Events and the Must Play Immediately cards;
- `rolls.RollPoints`, `mutiny.Mutiny`, `bermuda.Bermuda`, `ending.Ending`: what many of
  them call: the roll points, mutinies, the way out of Bermuda, the end of the game.

Every step is a `Step` frame holding the method of the collaborator it calls; a method
finishes, pushes the frames that follow it or opens a request, whose answer calls the
continuation it holds with the chosen `Option`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

from admiralty.games.base import Event, Outcome, Viewer
from admiralty.games.blackbeard import determinize
from admiralty.games.blackbeard import view as views
from admiralty.games.blackbeard.actions import PirateActions
from admiralty.games.blackbeard.antipirate import AntiPirate
from admiralty.games.blackbeard.apcards import ApCards
from admiralty.games.blackbeard.bermuda import Bermuda
from admiralty.games.blackbeard.cards import EventCards
from admiralty.games.blackbeard.crown import Crown
from admiralty.games.blackbeard.ending import Ending
from admiralty.games.blackbeard.fights import Fights
from admiralty.games.blackbeard.inport import InPort
from admiralty.games.blackbeard.loot import Loot
from admiralty.games.blackbeard.mutiny import Mutiny
from admiralty.games.blackbeard.raids import Raids
from admiralty.games.blackbeard.rolls import RollPoints
from admiralty.games.blackbeard.setup import Setup
from admiralty.games.blackbeard.table import Table
from admiralty.games.blackbeard.turns import Turns
from admiralty.games.chance import Chance
from admiralty.games.flow import Flow, FlowState


class _Part(Protocol):
    """A part of the game: it runs on the game's flow."""

    flow: Flow


class BlackbeardState(FlowState):
    """One game. Build it with `Blackbeard().new_game(...)`; see `arrange` for positions."""

    table: Table
    rolls: RollPoints
    mutiny: Mutiny
    bermuda: Bermuda
    ending: Ending
    setup: Setup
    fights: Fights
    apcards: ApCards
    antipirate: AntiPirate
    cards: EventCards
    crown: Crown
    actions: PirateActions
    loot: Loot
    in_port: InPort
    raids: Raids
    turns: Turns
    _setup_events: list[Event]

    def __init__(self, table: Table) -> None:
        """The collaborators, built on `table`; `_wire` then gives them their flow."""
        self.table = table
        self.players = table.players
        self.rolls = RollPoints(table)
        self.mutiny = Mutiny(table, self.rolls)
        self.bermuda = Bermuda(table)
        self.ending = Ending(table)
        self.setup = Setup(table)
        self.fights = Fights(table, self.rolls)
        self.apcards = ApCards(table, self.rolls, self.fights, self.mutiny, self.bermuda)
        self.antipirate = AntiPirate(
            table, self.rolls, self.fights, self.apcards, self.mutiny, self.ending
        )
        self.cards = EventCards(table, self.rolls, self.mutiny, self.bermuda, self.ending)
        self.crown = Crown(
            table, self.antipirate, self.apcards, self.cards, self.mutiny, self.ending
        )
        self.actions = PirateActions(table, self.rolls, self.antipirate, self.setup)
        self.loot = Loot(table, self.rolls)
        self.in_port = InPort(table, self.rolls, self.loot)
        self.raids = Raids(table, self.rolls, self.antipirate, self.fights, self.loot, self.bermuda)
        self.turns = Turns(
            table,
            self.actions,
            self.loot,
            self.in_port,
            self.raids,
            self.cards,
            self.antipirate,
            self.crown,
            self.mutiny,
            self.ending,
        )

    @classmethod
    def new(cls, players: int, seed: int, options: Mapping[str, Any]) -> BlackbeardState:
        """A new game, set up as far as the first request."""
        state = cls(Table(players, Chance(seed), options))
        state._wire(Flow())
        state.setup.start(then=state.turns.next_turn())
        state.flow.run()
        state._setup_events = state.flow.events
        return state

    def _parts(self) -> tuple[_Part, ...]:
        return (
            self.table,
            self.rolls,
            self.mutiny,
            self.bermuda,
            self.ending,
            self.setup,
            self.fights,
            self.apcards,
            self.antipirate,
            self.cards,
            self.crown,
            self.actions,
            self.loot,
            self.in_port,
            self.raids,
            self.turns,
        )

    def _wire(self, flow: Flow) -> None:
        """Give each part what is made after it: the flow that runs them all (a copy's
        flow is made from the copied parts, `Flow.copy`) and, to the anti-pirate side, the
        Crown, whose moments are its windows in solitaire and which acts through it."""
        self.flow = flow
        for part in self._parts():
            part.flow = flow
        self.antipirate.crown = self.crown

    # ------------------------------------------------------------- the engine contract

    @property
    def chance(self) -> Chance:
        """The table's chance: every draw of the game comes from it."""
        return self.table.chance

    @chance.setter
    def chance(self, chance: Chance) -> None:
        self.table.chance = chance

    def outcome(self) -> Outcome | None:
        return self.table.outcome

    def view(self, viewer: Viewer) -> dict[str, Any]:
        return views.view(self.table, viewer)

    def snapshot(self) -> dict[str, Any]:
        return views.snapshot(self.table, self.flow)

    def determinize(self, seat: int, rng: random.Random) -> BlackbeardState:
        """See `determinize` (the module): others' cards, deck orders, face-down merchants
        and the chance, dealt again."""
        return determinize.determinize(self, seat, rng)

    def clone(self) -> BlackbeardState:
        """A copy of the table with its own collaborators, and the flow moved onto them."""
        new = BlackbeardState(self.table.copy())
        new._wire(self.flow.copy(*zip(self._parts(), new._parts(), strict=True)))
        return new
