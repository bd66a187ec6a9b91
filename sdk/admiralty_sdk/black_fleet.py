"""Black Fleet helpers: the static map as a chart for route planning, and card look-ups.

The board a bot receives (`request.match_info.black_fleet`, a `BlackFleetBoard`) lists
spaces, neighbours, ports and beaches; route planning needs distances. `Chart` derives
them once per board:

    from admiralty_sdk.black_fleet import Chart

    chart = Chart(request.match_info.black_fleet)      # on the first request of a match
    chart.distance(16, 45)                             # fewest steps, ignoring ships
    chart.ports_next_to[16]                            # ['T']
    chart.price("T", "yellow")                         # 3: what Tortuga pays per cube
    chart.movement["M17"].merchant                     # a movement card's merchant value

Distances count steps through sea spaces and ignore ships, as the engine's attack
ranges do (docs/games/black_fleet.md); actual sailing may be longer when ships block.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from admiralty_sdk.v1 import black_fleet_pb2

UNREACHABLE = 10**6
"""The distance reported between spaces that no sea route joins."""


class Chart:
    """The static Black Fleet map and cards, indexed for bots."""

    def __init__(self, board: black_fleet_pb2.BlackFleetBoard):
        sea = board.board
        self.board = board
        self.spaces: tuple[int, ...] = tuple(space.id for space in sea.spaces)
        """Every sea space id."""
        self.neighbours: dict[int, tuple[int, ...]] = {
            space.id: tuple(space.neighbours) for space in sea.spaces
        }
        """The sea spaces one step from each space."""
        self.ports = {port.key: port for port in sea.ports}
        """The ports (`BlackFleetPort`) by key."""
        self.home = {port.colour: port.key for port in sea.ports}
        """The port loading each goods colour, by colour."""
        self.ports_next_to: dict[int, list[str]] = {space: [] for space in self.spaces}
        """The keys of the ports next to each space (most spaces: none)."""
        for port in sea.ports:
            for space in port.adjacent:
                self.ports_next_to[space].append(port.key)
        self.beaches: dict[int, int] = {beach.space: beach.value for beach in sea.beaches}
        """The burial value of each beach, by space."""
        self.lairs: tuple[int, ...] = tuple(sea.lairs)
        """The lair spaces."""
        self.zones: dict[str, tuple[int, ...]] = {
            zone.key: tuple(zone.entry) for zone in sea.distant_seas
        }
        """The entry spaces of each distant sea, by key."""
        self.movement = {card.id: card for card in board.movement_cards}
        """The movement cards by id."""
        self.fortune = {card.id: card for card in board.fortune_cards}
        """The fortune cards by id."""
        self.development = {card.id: card for card in board.development_cards}
        """The development cards by id."""
        self._distance = {space: self._bfs(space) for space in self.spaces}

    def _bfs(self, start: int) -> dict[int, int]:
        found = {start: 0}
        queue = deque([start])
        while queue:
            space = queue.popleft()
            for near in self.neighbours[space]:
                if near not in found:
                    found[near] = found[space] + 1
                    queue.append(near)
        return found

    def distance(self, a: int, b: int) -> int:
        """The fewest steps from space `a` to space `b`, ignoring ships."""
        return self._distance[a].get(b, UNREACHABLE)

    def nearest(self, a: int, targets: Iterable[int]) -> int:
        """The fewest steps from `a` to any of `targets` (UNREACHABLE if there are none)."""
        row = self._distance[a]
        return min((row.get(t, UNREACHABLE) for t in targets), default=UNREACHABLE)

    def within(self, a: int, steps: int) -> list[int]:
        """The spaces at most `steps` from `a` (itself included), ignoring ships."""
        return [space for space, d in self._distance[a].items() if d <= steps]

    def price(self, port: str, colour: str) -> int:
        """Doubloons per cube `port` pays for `colour` on the printed board; 0 if it refuses."""
        return self.ports[port].buys.get(colour, 0)

    def buyers(self, colour: str) -> list[str]:
        """The keys of the ports that buy `colour`, best price first."""
        keys = [key for key, port in self.ports.items() if port.buys.get(colour, 0)]
        return sorted(keys, key=lambda key: -self.price(key, colour))


def seat_of(
    observation: black_fleet_pb2.BlackFleetObservation, seat: int
) -> black_fleet_pb2.BlackFleetSeat:
    """The `BlackFleetSeat` of `seat` in an observation."""
    return observation.seats[seat]


def ship_space(observation: black_fleet_pb2.BlackFleetObservation, ref: str) -> int | None:
    """The space of a ship named `merchant:<seat>`, `pirate:<seat>` or `navy:<colour>`;
    None when it is off the board or in a distant sea."""
    kind, who = ref.split(":")
    if kind == "navy":
        return observation.navies.get(who)
    ship = getattr(observation.seats[int(who)], kind)
    return ship.space if ship.HasField("space") else None
