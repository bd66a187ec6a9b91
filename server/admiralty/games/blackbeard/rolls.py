"""The roll points of a pirate's rolls [blackbeard §12.0, §R4.5]: after a pirate rolls, his
owner may re-roll with a Cunning point (at most 3 dice, once), then play Skull and
Crossbones for a bonus. A contest's rolls share one roll point, the Pirate Player's pirate
first: every Cunning decision, then every Skull and Crossbones decision.

The dice are kept on the table (`Table.rolled`, `Table.bonus`) by the key of the roll, for
the step that applies the result.
"""

from __future__ import annotations

from collections.abc import Sequence

from admiralty.games.base import Option
from admiralty.games.blackbeard.choices import opt
from admiralty.games.blackbeard.pieces import Pirate
from admiralty.games.blackbeard.table import DATA, Table
from admiralty.games.flow import Flow, Step, step

ACCEPT, REROLL = (
    opt("accept", "accept the roll", reroll=False),
    opt("reroll", "re-roll it", reroll=True),
)
PLAY_SKULL = opt("skull", "play Skull and Crossbones", play=True)
SKULL = DATA.card("skull_and_crossbones")

Roll = tuple[str, str, int, bool, tuple[str | int, ...]]
"""One roll of a contest: (pirate, key, dice, Skull and Crossbones allowed, name)."""


class RollPoints:
    """Rolls for pirates and their roll points."""

    flow: Flow

    def __init__(self, table: Table) -> None:
        self.table = table

    def roll(
        self,
        pid: str,
        key: str,
        dice: int,
        skull: bool,
        then: Step,
        *,
        rolled: bool = False,
        name: tuple[str | int, ...] = (),
    ) -> None:
        """Roll `dice` d6 for `pid` (unless `rolled`), then its roll point; `then` applies
        the result from `rolled[key]` + `bonus[key]`."""
        table = self.table
        if not rolled:
            table.rolled[key] = sum(table.roll(dice, *table.where(key, *name)))
        self.flow.push(then)
        self.points([(pid, key, dice, skull, name)])

    def points(self, rolls: Sequence[Roll]) -> None:
        """The roll point of one contest's rolls, thrown already (the Pirate Player's pirate
        first)."""
        for _, key, _, _, _ in rolls:
            self.table.bonus[key] = 0
        cunning = [
            step(self._rp_cunning, pid, key, dice, name)
            for pid, key, dice, _, name in rolls
            if self.table.options["cunning"] and dice <= 3
        ]
        skulls = [step(self._rp_skull, pid, key) for pid, key, _, skull, _ in rolls if skull]
        self.flow.push(*cunning, *skulls)

    def roller(self, pid: str) -> Pirate | None:
        """The pirate a roll is made for: on the map, or a Piratical Ambition challenger."""
        pirate = self.table.pirates.get(pid)
        challenger = self.table.challenger
        if pirate is None and challenger is not None and challenger.id == pid:
            return challenger
        return pirate

    @staticmethod
    def cunning_left(pirate: Pirate) -> int:
        return DATA.pirates[pirate.id].cunning - pirate.cunning_used

    def _rp_cunning(self, pid: str, key: str, dice: int, name: tuple[str | int, ...]) -> None:
        pirate = self.roller(pid)
        if pirate is None or self.cunning_left(pirate) <= 0:
            return
        self.flow.ask(
            pirate.owner,
            self.table.window_of(pirate.owner),
            "cunning",
            f"Re-roll the {key.replace('_', ' ')} roll ({self.table.rolled[key]}) "
            "with a Cunning point?",
            (ACCEPT, REROLL),
            step(self._rp_rerolled, pid, key, dice, name),
        )

    def _rp_rerolled(
        self, option: Option, pid: str, key: str, dice: int, name: tuple[str | int, ...]
    ) -> None:
        if option is ACCEPT:
            return
        pirate = self.roller(pid)
        assert pirate is not None
        table = self.table
        pirate.cunning_used += 1
        old = table.rolled[key]
        table.rolled[key] = sum(table.roll(dice, *table.where(key, *name, "reroll")))
        self.flow.emit(
            "rerolled",
            {
                "pirate": pid,
                "roll": key,
                "was": old,
                "now": table.rolled[key],
                "cunning_used": pirate.cunning_used,
            },
        )

    def _skull_cost(self) -> int:
        options = self.table.options
        free = not options["cunning"] or options["skull_and_crossbones_bonus"] == "plus2_free"
        return 0 if free else SKULL.params["cunning_cost"]

    def _rp_skull(self, pid: str, key: str) -> None:
        """Asked whenever the pirate could pay, held or not: the offer tells nothing of the
        hand [blackbeard §R4.5]."""
        pirate = self.roller(pid)
        if pirate is None or self.cunning_left(pirate) < self._skull_cost():
            return
        seat = pirate.owner
        held = SKULL.number in self.table.seats[seat].events
        self.flow.ask(
            seat,
            self.table.window_of(seat),
            "skull_and_crossbones",
            f"Play Skull and Crossbones on the {key.replace('_', ' ')} roll?",
            (ACCEPT, PLAY_SKULL) if held else (ACCEPT,),
            step(self._rp_skulled, pid, key),
            publish=True,
        )

    def _rp_skulled(self, option: Option, pid: str, key: str) -> None:
        if option is ACCEPT:
            return
        pirate = self.roller(pid)
        assert pirate is not None
        table = self.table
        seat = pirate.owner
        table.seats[seat].events.remove(SKULL.number)
        table.discard.append(SKULL.number)
        if seat == table.turn.active:  # its Event, the card's own-turn use: a HUP play (17.14)
            table.turn.hup_played = True  # [blackbeard §4.4, §12.0, §R4.5]
            self.flow.emit("card_used", {"seat": seat, "card": SKULL.number, "use": "event"})
        pirate.cunning_used += self._skull_cost()
        bonus = (
            1
            if table.options["skull_and_crossbones_bonus"] == "plus1_cunning"
            else SKULL.params["bonus"]
        )
        table.bonus[key] += bonus
        self.flow.emit(
            "skull_and_crossbones", {"seat": seat, "pirate": pid, "roll": key, "bonus": bonus}
        )
