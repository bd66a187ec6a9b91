"""An information-set MCTS bot (single-observer ISMCTS): UCT over determinizations.

    admiralty play jamaica --local --bot "example_bots/ismcts.py --iterations 200" \\
        --bot example_bots/jamaica_greedy.py

Each iteration draws a determinization of the position from the seat's sampler (the
local runner's seat-bound handle, `admiralty.referee.local.Sampler`: the engine state with
everything the seat cannot see dealt again, never the real state), walks one tree shared
by all iterations — every seat's decisions are in it, named by (seat, option key), each
chosen by UCB1 among those the determinization allows (a child's availability counts the
visits in which it could be chosen) — adds one node, plays on at random for `--depth`
answers (10 by default), and scores the end by places (the share of the other seats each
seat beats) or, cut short, each seat's lead over the best other on a public
measure of its standing that counts progress, not only points banked (`VALUES`): random
answers rarely bank any within a few turns, so a measure of points alone cannot tell good
moves from bad. The answer is the most visited option at the root.

Flags: `--iterations` (determinizations searched per decision, 100 by default),
`--depth`, `--seed`.

It searches engine states, so it runs only in process (`admiralty play --local`,
`admiralty.referee.local.play_local`): a bot served over gRPC receives observations, not
states, and cannot search this way. Its rng is seeded from `--seed`, the match and the
seat, so a match is a function of its seeds.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable
from typing import Any

from admiralty_sdk import Bot
from admiralty_sdk.black_fleet import Chart

EXPLORATION = 0.7
"""UCB1's exploration constant, for rewards in [0, 1]."""


def jamaica_values(view: dict[str, Any], chart: None) -> list[float]:
    """Doubloons in the holds less the steps still to sail: the track scores nothing
    before its last stretch, yet the race decides most games."""
    return [
        sum(hold["count"] for hold in player["holds"] if hold["kind"] == "gold")
        - JAMAICA_STEP * player["steps_left"]
        for player in view["players"]
    ]


def black_fleet_values(view: dict[str, Any], chart: Chart) -> list[float]:
    """The ranking of the rules (the Victory card, then development cards, then money),
    plus the best sale within reach of each merchant's cargo, less the steps to it: a
    fortune only counts once delivered, so a shallow search must see the way to port."""
    return [
        1000 * seat["victory_bought"]
        + sum(card["cost"] for card in seat["development"] if card["bought"])
        + seat["money"]
        + ROUTE_SHARE * _route(seat["merchant"], view["ports"], chart)
        for seat in view["seats"]
    ]


def _route(merchant: dict[str, Any], ports: list[dict[str, Any]], chart: Chart) -> float:
    """The best delivery of the merchant's cargo less 1.3 doubloons a step, at least 0."""
    cargo, space = merchant["cargo"], merchant["space"]
    if not cargo or space is None:
        return 0.0
    return max(
        [
            port["buys"].get(cargo[0], 0) * len(cargo)
            - 1.3 * chart.nearest(space, chart.ports[port["key"]].adjacent)
            for port in ports
            if port["stock"]
        ]
        + [0.0]
    )


def blackbeard_values(view: dict[str, Any], chart: None) -> list[float]:
    """Victory Points, plus what each pirate afloat would bring home on retiring: his
    Notoriety, his Net Worth and his Booty (a VP a hundred doubloons, discounted)."""
    values = [float(player["vp"]) for player in view["players"]]
    for pirate in view["pirates"]:
        values[pirate["owner"]] += (
            pirate["notoriety"]
            + 0.85 * pirate["net_worth"] / 100
            + 0.6 * sum(pirate["ship"]["holds"]) / 100
        )
    return values


JAMAICA_STEP = 1.0
"""Doubloons a step of progress is worth in Jamaica."""
ROUTE_SHARE = 0.5
"""The share of a Black Fleet sale in reach counted before it is made."""

Values = Callable[[dict[str, Any], Any], list[float]]

VALUES: dict[str, tuple[Values, float]] = {
    "jamaica": (jamaica_values, 8.0),
    "black_fleet": (black_fleet_values, 8.0),
    "blackbeard": (blackbeard_values, 4.0),
}
"""Per game: each seat's standing in a public view, for rollouts cut short, and the lead
over the best other seat that counts as a clear advantage. Each measure is also given
the game's static map, indexed (`Chart`, for Black Fleet; None for the others)."""


def leads(values: list[float], scale: float) -> list[float]:
    """Per seat, its lead over the best other seat squashed into (0, 1): 1/2 for level."""
    if len(values) == 1:
        return [0.5 + 0.5 * math.tanh(values[0] / scale)]
    return [
        0.5 + 0.5 * math.tanh((mine - max(values[:seat] + values[seat + 1 :])) / scale)
        for seat, mine in enumerate(values)
    ]


def shares(values: list[float]) -> list[float]:
    """Per seat, the share of the other seats it beats (a tie counts half); one seat alone
    scores 1 for a value of 0 or more (a solitaire margin) and 0 below."""
    if len(values) == 1:
        return [float(values[0] >= 0)]
    return [
        sum(
            1.0 if mine > other else 0.5 if mine == other else 0.0
            for other in values[:seat] + values[seat + 1 :]
        )
        / (len(values) - 1)
        for seat, mine in enumerate(values)
    ]


class Node:
    """A decision reached by a path of (seat, option key) moves: the reward of every seat
    summed over its visits, and how often it could have been chosen (its availability)."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self, players: int):
        self.children: dict[tuple[int, str], Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = [0.0] * players

    def ucb(self, seat: int) -> float:
        return self.reward[seat] / self.visits + EXPLORATION * math.sqrt(
            math.log(self.available) / self.visits
        )


class ISMCTS(Bot):
    name = "ismcts"
    version = "1.1"

    def __init__(self, iterations: int = 100, depth: int = 10, seed: int = 0):
        self.iterations, self.depth, self.seed = iterations, depth, seed
        self._seats: dict[tuple[str, int], tuple[Any, random.Random]] = {}
        self._charts: dict[str, Chart] = {}

    @classmethod
    def from_argv(cls, argv: list[str]) -> ISMCTS:
        parser = argparse.ArgumentParser(prog="ismcts.py", description=__doc__.splitlines()[0])
        parser.add_argument(
            "--iterations", type=int, default=100, help="determinizations searched per decision"
        )
        parser.add_argument(
            "--depth",
            type=int,
            default=10,
            help="random answers a rollout plays before it is scored",
        )
        parser.add_argument("--seed", type=int, default=0)
        args, _ = parser.parse_known_args(argv)
        return cls(args.iterations, args.depth, args.seed)

    def use_sampler(self, match_id: str, seat: int, sampler) -> None:
        self._seats[match_id, seat] = (sampler, random.Random(f"{self.seed}:{match_id}:{seat}"))

    def on_match_start(self, request) -> None:
        if request.match_info.HasField("black_fleet"):
            self._charts[request.match_id] = Chart(request.match_info.black_fleet)

    def on_match_over(self, message) -> None:
        self._seats.pop((message.result.match_id, message.seat), None)
        self._charts.pop(message.result.match_id, None)

    def decide(self, request) -> int:
        seated = self._seats.get((request.match_id, request.seat))
        if seated is None:
            raise RuntimeError(
                "ismcts searches engine states: play it with the local runner "
                "(admiralty play --local)"
            )
        if len(request.options) == 1:  # PASS alone, asked so that timing tells nothing
            return 0
        sampler, rng = seated
        values, scale = VALUES[request.WhichOneof("observation")]
        chart = self._charts.get(request.match_id)

        def cutoff(view: dict[str, Any]) -> list[float]:
            return leads(values(view, chart), scale)

        root: Node | None = None
        for _ in range(self.iterations):
            state = sampler.sample(rng)
            if root is None:
                root = Node(state.players)
            self._iterate(root, state, request.seat, rng, cutoff)
        assert root is not None
        best = max(root.children.items(), key=lambda item: item[1].visits)[0]
        return next(o.index for o in request.options if o.key == best[1])

    def _iterate(
        self,
        root: Node,
        state,
        seat: int,
        rng: random.Random,
        cutoff: Callable[[dict[str, Any]], list[float]],
    ) -> None:
        """Select and expand down the tree, roll out, and back the rewards up the path."""
        node, path, first = root, [root], True
        while state.outcome() is None:
            request = _next(state, seat if first else None)
            first = False
            if len(request.options) == 1:
                state.apply(request.seat, 0)
                continue
            moves = {
                (request.seat, option.key): index for index, option in enumerate(request.options)
            }
            untried = [move for move in moves if move not in node.children]
            for move in moves:
                if move in node.children:
                    node.children[move].available += 1
            if untried:
                move = rng.choice(untried)
                child = node.children[move] = Node(state.players)
                child.available = 1
                state.apply(request.seat, moves[move])
                path.append(child)
                break
            mover = request.seat
            move = max(moves, key=lambda m: node.children[m].ucb(mover))
            state.apply(request.seat, moves[move])
            node = node.children[move]
            path.append(node)
        reward = self._rollout(state, rng, cutoff)
        for visited in path:
            visited.visits += 1
            for index, value in enumerate(reward):
                visited.reward[index] += value

    def _rollout(
        self, state, rng: random.Random, cutoff: Callable[[dict[str, Any]], list[float]]
    ) -> list[float]:
        for _ in range(self.depth):
            if state.outcome() is not None:
                break
            request = rng.choice(state.pending())
            state.apply(request.seat, rng.randrange(len(request.options)))
        outcome = state.outcome()
        if outcome is None:
            return cutoff(state.view(None))
        if len(outcome.scores) == 1:
            return shares(list(outcome.scores))
        return shares([-place for place in outcome.places])


def _next(state, seat: int | None):
    """The request to follow: `seat`'s at the root (a SEALED window asks several seats),
    else the first open one."""
    pending = state.pending()
    if seat is not None:
        return next(request for request in pending if request.seat == seat)
    return pending[0]


if __name__ == "__main__":
    ISMCTS.from_argv(sys.argv[1:])  # --help, and a check of the flags
    sys.exit(
        "ismcts searches engine states, which only the local runner gives: "
        "admiralty play GAME --local --bot 'example_bots/ismcts.py --iterations N' ..."
    )
