"""The race track as a graph: successors both ways, forks, laps and progress.

A ship's position is a space id plus a lap state [jamaica §3.2]:

- ``pre_start``: it has not begun its lap. Every ship starts so on Port Royal; a backward
  move from Port Royal takes it behind the start line, and a forward move carries it
  through Port Royal into the lap without finishing [jamaica §6.2.3].
- ``racing``: on its lap.
- ``finished``: it reached Port Royal from the end of its lap [jamaica §9.1].
"""

from __future__ import annotations

from collections import deque
from typing import Any

from admiralty.games.base import Option
from admiralty.games.jamaica.data import Data

PRE_START, RACING, FINISHED = "pre_start", "racing", "finished"


class Board:
    """The track of `data`, with the tables the engine looks up on every step."""

    def __init__(self, data: Data) -> None:
        spaces = data.spaces
        self.spaces = spaces
        self.port_royal = data.port_royal
        self.kind = tuple(space.kind for space in spaces)
        self.cost = tuple(space.cost for space in spaces)
        self.score = tuple(space.score for space in spaces)
        self.pays = tuple(data.pays.get(space.kind) for space in spaces)
        self.pre_start_score = data.pre_start_score
        self.lairs = tuple(space.id for space in spaces if space.kind == "lair")
        self.lair_spaces = frozenset(self.lairs)
        forward = tuple(space.next for space in spaces)
        backward: list[list[int]] = [[] for _ in spaces]
        for space in spaces:
            for successor in space.next:
                backward[successor].append(space.id)
        self.successors = {1: forward, -1: tuple(tuple(sorted(b)) for b in backward)}
        self.runs = {
            direction: tuple(self._run(space.id, table) for space in spaces)
            for direction, table in self.successors.items()
        }
        """By direction and space, the spaces a move passes in order while nothing can stop
        it or change its lap state: up to a fork, or a step onto or off Port Royal."""
        self.to_finish = self._distances_to(self.port_royal, backward)
        self.lap_length = 1 + min(self.to_finish[n] for n in forward[self.port_royal])
        self.branch_options = {
            (space.id, direction): tuple(self._branch(n) for n in nexts)
            for direction, table in self.successors.items()
            for space, nexts in zip(spaces, table, strict=True)
            if len(nexts) > 1
        }

    @staticmethod
    def _distances_to(target: int, backward: list[list[int]]) -> tuple[int, ...]:
        """Fewest forward steps from every space to `target` (a breadth-first search)."""
        distance = {target: 0}
        queue = deque([target])
        while queue:
            space = queue.popleft()
            for previous in backward[space]:
                if previous not in distance:
                    distance[previous] = distance[space] + 1
                    queue.append(previous)
        return tuple(distance[i] for i in range(len(backward)))

    def _run(self, space: int, table: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
        """The `runs` entry of `space` in the direction of `table` (bounded, should a
        track ever have a loop without a fork or Port Royal)."""
        run: list[int] = []
        while (
            len(table[space]) == 1
            and self.port_royal not in (space, table[space][0])
            and len(run) < len(table)
        ):
            space = table[space][0]
            run.append(space)
        return tuple(run)

    def _branch(self, space: int) -> Option:
        lane = self.spaces[space].lane
        return Option(
            f"fork:{lane}", f"{lane} lane (space {space})", {"space": space, "branch": lane}
        )

    def step(self, space: int, lap: str, to: int, direction: int) -> str:
        """The lap state after one step from `space` to `to`.

        Leaving Port Royal forward begins the lap; reaching it forward while racing
        finishes; any other arrival on it, or a backward move off it, puts the ship
        behind the start line. (A finished Ghost Ship sailing on backward is racing again.)
        """
        port_royal = self.port_royal
        if to == port_royal:
            if direction > 0:
                return FINISHED if lap == RACING else lap
            return PRE_START
        if space == port_royal:
            return RACING if direction > 0 or lap == FINISHED else PRE_START
        return lap

    def steps_left(self, space: int, lap: str) -> int:
        """Fewest steps still needed to finish: the order "further along the race" [jamaica G11]."""
        if lap == FINISHED:
            return 0
        if lap == PRE_START:
            return self.to_finish[space] + self.lap_length
        return self.to_finish[space]

    def position_score(self, space: int, lap: str) -> int:
        """The end-of-game white number [jamaica §9.2]; a ship behind the start line scores the
        `pre_start_score` [jamaica G10]."""
        return self.pre_start_score if lap == PRE_START else self.score[space]

    def static_info(self) -> dict[str, Any]:
        """The board as plain data, sent once per match (ids never repeat in views)."""
        return {
            "port_royal": self.port_royal,
            "lap_length": self.lap_length,
            "pre_start_score": self.pre_start_score,
            "spaces": [
                {
                    "id": space.id,
                    "kind": space.kind,
                    "cost": space.cost,
                    "pays": self.pays[space.id],
                    "score": space.score,
                    "lane": space.lane,
                    "fork": space.fork,
                    "next": list(space.next),
                }
                for space in self.spaces
            ],
        }
