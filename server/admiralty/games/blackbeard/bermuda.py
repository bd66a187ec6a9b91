"""Leaving Bermuda [blackbeard §2.2, §7.3]: Bermuda's port lies in two sea areas, so a
pirate an effect puts At Sea from it (an Oust, a Sack, a destroyed port) waits in North
Atlantic until his owner names the one he sails into; an ally goes with him
[blackbeard §11.12].
"""

from __future__ import annotations

from admiralty.games.base import Option
from admiralty.games.blackbeard.choices import area_options
from admiralty.games.blackbeard.table import DATA, Table
from admiralty.games.flow import Flow, step

BERMUDA = next(port.areas for port in DATA.ports.values() if len(port.areas) > 1)
"""Bermuda's two sea areas, North Atlantic first [blackbeard §2.2]."""


class Bermuda:
    """The owners' choice of sea area for pirates put At Sea from Bermuda."""

    flow: Flow

    def __init__(self, table: Table) -> None:
        self.table = table

    def follow(self) -> None:
        """Ask about the pirates just put At Sea from Bermuda, if any, before what comes
        next."""
        if self.table.from_bermuda:
            self.flow.push(step(self._bermuda))

    def _bermuda(self) -> None:
        pending, self.table.from_bermuda = self.table.from_bermuda, []
        self.flow.push(*(step(self._bermuda_ask, pid) for pid in pending))

    def _bermuda_ask(self, pid: str) -> None:
        table = self.table
        pirate = table.pirates.get(pid)
        if pirate is None or pirate.port is not None or pirate.area not in BERMUDA:
            return
        partner = table.partner(pirate)
        if (
            partner is not None
            and partner.id < pid
            and partner.port is None
            and partner.area in BERMUDA
        ):
            return  # asked once for the alliance, with the other ally
        seat = pirate.owner
        self.flow.ask(
            seat,
            table.window_of(seat),
            "bermuda_area",
            f"{DATA.pirates[pid].name} leaves Bermuda: into which sea area?",
            tuple(o for o in area_options() if o.payload["area"] in BERMUDA),
            step(self._bermuda_area, pid),
        )

    def _bermuda_area(self, option: Option, pid: str) -> None:
        area = option.payload["area"]
        for pirate in self.table.alliance(self.table.pirates[pid]):
            pirate.area = area
            self.flow.emit("bermuda_area", {"pirate": pirate.id, "area": area})
