"""The sea map: spaces, adjacency, distances, ports, beaches, lairs and distant seas.

The board file gives a character grid; everything else is derived from it, so the
map can be redrawn without touching code. Sea cells are numbered 1..N in reading
order, and two sea spaces are adjacent when their cells share an edge.

>>> from admiralty.games.black_fleet.data import load_data
>>> board = load_data().board
>>> board.size, board.neighbours[45], board.distance[45][36]
(86, (36,), 1)
>>> board.ports_next_to[16][0].name
'Tortuga'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_SEA = frozenset(".23456789LYU")
"""Grid characters that are sea spaces (plain sea, beaches, lairs, navy starts)."""
_NAVY_MARKS = {"Y": "yellow", "U": "purple"}
_ZONE = "D"
_LAND = "#"


@dataclass(frozen=True, slots=True)
class Port:
    key: str
    name: str
    colour: str
    cell: tuple[int, int]
    adjacent: tuple[int, ...]
    buys: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "colour": self.colour,
            "cell": list(self.cell),
            "adjacent": list(self.adjacent),
            "buys": dict(self.buys),
        }


@dataclass(frozen=True, slots=True)
class Zone:
    """A distant sea: an off-board box from which a pirate enters through `entry`."""

    key: str
    cell: tuple[int, int]
    entry: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "cell": list(self.cell), "entry": list(self.entry)}


class Board:
    """Immutable geometry shared by every game; lists are indexed by space id (0 unused)."""

    def __init__(self, raw: Mapping[str, Any]):
        grid = raw["grid"]
        self.rows: tuple[str, ...] = tuple(grid["rows"])
        self.goods: tuple[str, ...] = tuple(raw["goods"])
        self.cells: tuple[tuple[int, int], ...] = ((-1, -1), *self._sea_cells())
        self.size = len(self.cells) - 1
        self.space_at = {cell: space for space, cell in enumerate(self.cells) if space}
        self.land: tuple[tuple[int, int], ...] = tuple(
            (r, c) for r, line in enumerate(self.rows) for c, ch in enumerate(line) if ch == _LAND
        )
        """The island and mainland cells, port cells excluded: never entered, and never
        between two adjacent spaces [black_fleet §R1.1]."""
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            self._around(cell) if space else () for space, cell in enumerate(self.cells)
        )
        self.distance: tuple[tuple[int, ...], ...] = tuple(
            self._distances_from(space) for space in range(self.size + 1)
        )
        self.beaches: dict[int, int] = {
            s: int(self._char(c)) for s, c in enumerate(self.cells) if s and self._char(c).isdigit()
        }
        self.lairs: tuple[int, ...] = tuple(
            s for s, c in enumerate(self.cells) if s and self._char(c) == "L"
        )
        self.navy_start: dict[str, int] = {
            _NAVY_MARKS[self._char(c)]: s
            for s, c in enumerate(self.cells)
            if s and self._char(c) in _NAVY_MARKS
        }
        self._check(raw.get("checks", {}))
        self.ports: dict[str, Port] = {p["key"]: self._port(p) for p in raw["ports"]}
        self.home: dict[str, Port] = {port.colour: port for port in self.ports.values()}
        self.ports_next_to: tuple[tuple[Port, ...], ...] = tuple(
            tuple(p for p in self.ports.values() if s in p.adjacent) for s in range(self.size + 1)
        )
        self.zones: dict[str, Zone] = {z["key"]: self._zone(z) for z in raw["distant_seas"]}
        if sorted(self.home) != sorted(self.goods):
            raise ValueError("the board needs exactly one port per goods colour")
        self._derive_search_tables()

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> Board:
        return cls(raw)

    # -- derivation from the grid ------------------------------------------------------

    def _char(self, cell: tuple[int, int]) -> str:
        row, col = cell
        if 0 <= row < len(self.rows) and 0 <= col < len(self.rows[row]):
            return self.rows[row][col]
        return _LAND

    def _sea_cells(self) -> list[tuple[int, int]]:
        return [
            (r, c) for r, line in enumerate(self.rows) for c, ch in enumerate(line) if ch in _SEA
        ]

    def _around(self, cell: tuple[int, int]) -> tuple[int, ...]:
        """Sea spaces orthogonally next to `cell`, in reading order."""
        row, col = cell
        near = [(row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col)]
        return tuple(self.space_at[c] for c in near if c in self.space_at)

    def _distances_from(self, start: int) -> tuple[int, ...]:
        """Fewest steps from `start` to every space through sea spaces, ignoring ships."""
        far = self.size + 1
        dist = [far] * (self.size + 1)
        if not start:
            return tuple(dist)
        dist[start] = 0
        queue = deque([start])
        while queue:
            space = queue.popleft()
            for nxt in self.neighbours[space]:
                if dist[nxt] == far:
                    dist[nxt] = dist[space] + 1
                    queue.append(nxt)
        return tuple(dist)

    def _derive_search_tables(self) -> None:
        """Tables for `movement.destinations`, the engine's hottest query, made once here.

        `links` maps a space or a distant sea to what is one step away (a sea's entry
        spaces); `lair_links` is the same when a pirate's card makes the lairs touch.
        `open_reach[space][b]` is what a ship on `space` reaches in b steps on an empty
        sea, in the order the search meets it, and `open_shade[space]` the spaces that
        search goes on from (see `movement._open_sea`); `zone_reach`, `zone_shade` and
        `zone_distance` are the same from each distant sea, entering costing one step.
        """
        spaces = range(1, self.size + 1)
        self.links: dict[int | str, tuple[int, ...]] = {
            **{s: self.neighbours[s] for s in spaces},
            **{key: zone.entry for key, zone in self.zones.items()},
        }
        self.lair_links: dict[int | str, tuple[int, ...]] = {
            **self.links,
            **{s: self.neighbours[s] + tuple(x for x in self.lairs if x != s) for s in self.lairs},
        }
        empty: tuple[tuple[dict[int, int], ...], frozenset[int]] = ((), frozenset())
        reach = [empty] + [self._open_reach(self.neighbours[s], {s}) for s in spaces]
        self.open_reach: tuple[tuple[dict[int, int], ...], ...] = tuple(r for r, _ in reach)
        self.open_shade: tuple[frozenset[int], ...] = tuple(shade for _, shade in reach)
        self.zone_reach: dict[str, tuple[dict[int, int], ...]] = {}
        self.zone_shade: dict[str, frozenset[int]] = {}
        self.zone_distance: dict[str, tuple[int, ...]] = {}
        far = self.size + 1
        for key, zone in self.zones.items():
            self.zone_reach[key], self.zone_shade[key] = self._open_reach(zone.entry, set())
            self.zone_distance[key] = tuple(
                1 + min(self.distance[e][s] for e in zone.entry) if s else far
                for s in range(self.size + 1)
            )

    def _open_reach(
        self, layer: tuple[int, ...], seen: set[int]
    ) -> tuple[tuple[dict[int, int], ...], frozenset[int]]:
        """The spaces within 0, 1, 2... steps ignoring ships, each with its steps; and the
        spaces from which the search first meets some other space (its tree's inner nodes).

        Each dict lists the spaces in the order the layered search of
        `movement.destinations` meets them on an empty sea, because that order is
        the order of the `move_ship` options. The last dict is the whole sea.
        """
        reach: list[dict[int, int]] = [{}]
        found: dict[int, int] = {}
        shade: set[int] = set()
        steps: list[tuple[int | None, int]] = [(None, space) for space in layer]
        while True:
            frontier = []
            for origin, space in steps:
                if space not in seen:
                    seen.add(space)
                    found[space] = len(reach)
                    frontier.append(space)
                    if origin is not None:
                        shade.add(origin)
            if not frontier:
                return tuple(reach), frozenset(shade)
            reach.append(dict(found))
            steps = [(space, near) for space in frontier for near in self.neighbours[space]]

    def _find(self, char: str) -> tuple[int, int]:
        cells = [
            (r, c) for r, line in enumerate(self.rows) for c, ch in enumerate(line) if ch == char
        ]
        if len(cells) != 1:
            raise ValueError(f"board grid must hold exactly one {char!r}, found {len(cells)}")
        return cells[0]

    def _port(self, raw: Mapping[str, Any]) -> Port:
        key = raw["key"]
        if key in _SEA or key in (_ZONE, _LAND):
            raise ValueError(f"port key {key!r} clashes with a grid symbol")
        cell = self._find(key)
        adjacent = self._around(cell)
        if sorted(adjacent) != sorted(raw["adjacent"]):
            raise ValueError(
                f"port {key}: grid gives adjacent {adjacent}, file says {raw['adjacent']}"
            )
        buys = dict(raw["buys"])
        if raw["colour"] in buys or not set(buys) <= set(self.goods):
            raise ValueError(f"port {key} must not buy its own colour or unknown goods")
        return Port(key, raw["name"], raw["colour"], cell, adjacent, buys)

    def _zone(self, raw: Mapping[str, Any]) -> Zone:
        cell = tuple(raw["cell"])
        if self._char(cell) != _ZONE:
            raise ValueError(f"distant sea {raw['key']} is not on a {_ZONE!r} cell")
        entry = self._around(cell)
        if sorted(entry) != sorted(raw["entry"]):
            raise ValueError(f"distant sea {raw['key']}: grid gives entry {entry}")
        return Zone(raw["key"], cell, entry)

    def _check(self, checks: Mapping[str, Any]) -> None:
        """The grid's figures against the file's [checks], before anything is derived from ids."""
        edges = sum(len(n) for n in self.neighbours) // 2
        found = {
            "sea_spaces": self.size,
            "edges": edges,
            "land_cells": len(self.land),
            "beaches": len(self.beaches),
            "lairs": len(self.lairs),
            "dead_ends": [s for s in range(1, self.size + 1) if len(self.neighbours[s]) == 1],
        }
        for name, expected in checks.items():
            if found[name] != expected:
                raise ValueError(
                    f"board check {name}: expected {expected}, grid gives {found[name]}"
                )
        if any(d > self.size for d in self.distance[1][1:]):
            raise ValueError("the sea spaces are not all connected")
        if set(self.navy_start) != set(_NAVY_MARKS.values()):
            raise ValueError("the board needs a start space for each navy ship")

    # -- queries -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The static description sent to bots and the console."""
        return {
            "rows": len(self.rows),
            "cols": max(len(line) for line in self.rows),
            "grid": list(self.rows),
            "adjacency": "orthogonal",
            "goods": list(self.goods),
            "spaces": [
                {
                    "id": space,
                    "row": self.cells[space][0],
                    "col": self.cells[space][1],
                    "neighbours": list(self.neighbours[space]),
                    "beach": self.beaches.get(space),
                    "lair": space in self.lairs,
                    "port": self.ports_next_to[space][0].key if self.ports_next_to[space] else None,
                }
                for space in range(1, self.size + 1)
            ],
            "ports": [port.to_json() for port in self.ports.values()],
            "beaches": [{"space": s, "value": v} for s, v in sorted(self.beaches.items())],
            "lairs": list(self.lairs),
            "distant_seas": [zone.to_json() for zone in self.zones.values()],
            "navy_start": dict(self.navy_start),
        }
