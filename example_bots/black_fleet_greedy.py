"""A greedy Black Fleet bot: sail for the best buyer, raid laden merchants, bury, buy.

    python example_bots/black_fleet_greedy.py --port 50062

Every decision scores each option with a one-step heuristic on the typed observation
(`request.black_fleet`) and the option payloads, using distances on the static map
(`admiralty_sdk.black_fleet.Chart`, built from the board sent with the first request):

- the merchant heads for the nearest port that pays well for its cargo, delivers there,
  and keeps away from opponents' pirates;
- the pirate attacks laden merchants (richest owner first), then buries its treasure on
  the best beach within reach;
- the navy ships it moves hunt opponents' pirates and keep away from its own;
- movement cards are chosen for what the turn can earn; fortune cards that pay or help
  (steals, met objectives, boosts) are played at once; purchases take the victory card
  when it can, else the dearest development card it can afford.

It wins most games against random bots; it looks one decision ahead and no further.
"""

from __future__ import annotations

from admiralty_sdk import Bot, run
from admiralty_sdk.black_fleet import UNREACHABLE, Chart

DANGER_REACH = 4
"""Steps from which an opponent's pirate is taken to threaten a merchant next turn."""
USEFUL_FORTUNE = {
    "steal": 3.0,
    "objective": 3.0,
    "boost": 1.5,
    "free_move": 0.5,
    "pirate_to_lair": 0.5,
}
"""How much a fortune card is worth keeping, by effect (for discards)."""
PLAYED_BOOSTS = (
    "move_bonus",
    "sale_bonus",
    "sell_anywhere",
    "merchant_immune",
    "attack_range",
    "attack_takes",
    "pirate_actions",
    "extra_navy",
    "top_up",
)
"""Boost modifiers worth playing as soon as they are offered."""


class BlackFleetGreedy(Bot):
    name = "black-fleet-greedy"
    version = "1.0"
    games = ("black_fleet",)

    def __init__(self):
        self._charts: dict[str, Chart] = {}
        self._chart: Chart | None = None

    # -- the Bot hooks --------------------------------------------------------------------

    def on_match_start(self, request) -> None:
        board = request.match_info.black_fleet
        key = request.match_info.rules_hash
        if key not in self._charts:
            self._charts[key] = Chart(board)
        self._chart = self._charts[key]

    def decide(self, request) -> int:
        if self._chart is None:  # joined without match info: nothing to plan with
            return 0
        turn = _Turn(self._chart, request)
        scores = [turn.score(option) for option in request.options]
        return max(range(len(scores)), key=lambda i: (scores[i], -i))


class _Turn:
    """One decision: the chart, the observation, and a scorer per request kind."""

    def __init__(self, chart: Chart, request):
        self.chart = chart
        self.request = request
        self.kind = request.kind
        self.obs = request.black_fleet
        self.seat = request.seat
        self.me = self.obs.seats[self.seat]
        self.others = [s for s in self.obs.seats if s.seat != self.seat]
        self.stock = {port.key: port.stock for port in self.obs.ports}

    def score(self, option) -> float:
        scorer = getattr(self, f"_{self.kind}", None)
        if scorer is None:
            return 0.0
        return scorer(option.key, option.black_fleet)

    # -- geometry ---------------------------------------------------------------------------

    def sale_value(self, space: int, cargo) -> float:
        """What delivering `cargo` from `space` pays (0 if no port there takes it)."""
        if not cargo:
            return 0.0
        best = 0
        for port in self.chart.ports_next_to.get(space, ()):
            if self.stock[port]:
                best = max(best, self.chart.price(port, cargo[0]))
        return best * len(cargo)

    def route_value(self, space: int, cargo) -> float:
        """The best delivery of `cargo` reachable from `space`, less the steps to it."""
        if not cargo:
            return 0.0
        best = -float(UNREACHABLE)
        for key in self.chart.buyers(cargo[0]):
            if not self.stock[key]:
                continue
            port = self.chart.ports[key]
            steps = self.chart.nearest(space, port.adjacent)
            best = max(best, self.chart.price(key, cargo[0]) * len(cargo) - 1.3 * steps)
        return best

    def pirate_threat(self, space: int) -> float:
        """How exposed a merchant on `space` is to opponents' pirates next turn."""
        threat = 0.0
        for other in self.others:
            pirate = other.pirate
            if pirate.cargo:
                continue  # a full pirate cannot attack (hold of 1)
            if pirate.HasField("space"):
                d = self.chart.distance(space, pirate.space)
            elif pirate.HasField("zone"):
                d = 1 + self.chart.nearest(space, self.chart.zones[pirate.zone])
            else:
                continue
            if d <= DANGER_REACH:
                threat += (DANGER_REACH + 1 - d) / DANGER_REACH
        return threat

    def prey(self) -> list:
        """Opponents' laden merchants on the board."""
        return [o for o in self.others if o.merchant.HasField("space") and o.merchant.cargo]

    def raid_value(self, space: int, may_act: bool) -> float:
        """For an empty pirate on `space`: an attack now, or the way to the nearest prey."""
        best = -float(UNREACHABLE)
        for other in self.prey():
            d = self.chart.distance(space, other.merchant.space)
            value = 2 + 0.05 * other.money
            if d <= 1 and may_act:
                best = max(best, 20 + value)
            else:
                best = max(best, value - 1.0 * max(d - 1, 0))
        return best if best > -UNREACHABLE else 0.0

    def burial_value(self, space: int, cubes: int, may_act: bool) -> float:
        """For a laden pirate on `space`: a burial now, or the way to the best beach."""
        best = -float(UNREACHABLE)
        for beach, value in self.chart.beaches.items():
            d = self.chart.distance(space, beach)
            if d == 0 and may_act:
                best = max(best, 20 + value * cubes)
            else:
                best = max(best, value * cubes - 0.8 * d)
        return best

    def hunt_value(self, space: int, may_act: bool) -> float:
        """For a navy ship on `space`: sinking an opponent's pirate, or closing in on one."""
        best = 0.0
        for other in self.others:
            pirate = other.pirate
            if not pirate.HasField("space"):
                continue
            d = self.chart.distance(space, pirate.space)
            value = 2 + 2 * len(pirate.cargo)
            if d <= 1 and may_act:
                best = max(best, 20 + value)
            else:
                best = max(best, value - 0.7 * max(d - 1, 0))
        mine = self.me.pirate
        if mine.HasField("space"):  # keep the navy away from our own pirate
            best += 0.3 * min(self.chart.distance(space, mine.space), 4)
        return best

    # -- request kinds ------------------------------------------------------------------------

    def _place_merchant(self, key: str, payload) -> float:
        cargo = [payload.colour] * 3
        return self.route_value(payload.space, cargo) - 1.5 * self.pirate_threat(payload.space)

    _reenter_merchant = _place_merchant

    def _reenter_pirate(self, key: str, payload) -> float:
        if payload.HasField("space"):
            starts = [payload.space]
        else:
            starts = list(self.chart.zones[payload.zone])
        return max(self.raid_value(space, may_act=False) for space in starts) - 0.5

    def _play_movement(self, key: str, payload) -> float:
        chart, me = self.chart, self.me
        value = {"draw1": 0.7, "draw2": 1.4, "discard1": -0.7}.get(payload.fortune, 0.0)
        merchant = me.merchant
        if merchant.HasField("space") and merchant.cargo:
            here = merchant.space
            value += self._best_reach(
                here,
                payload.merchant,
                lambda s: self.sale_value(s, merchant.cargo),
                lambda s: self.route_value(s, merchant.cargo),
            )
        pirate = me.pirate
        starts = []
        if pirate.HasField("space"):
            starts = [(pirate.space, payload.pirate)]
        elif pirate.HasField("zone") and payload.pirate > 0:
            starts = [(entry, payload.pirate - 1) for entry in chart.zones[pirate.zone]]
        if starts:
            if pirate.cargo:

                def now(s):
                    return chart.beaches.get(s, 0) * len(pirate.cargo)

                def later(s):
                    return 0.5 * self.burial_value(s, len(pirate.cargo), False)
            else:

                def now(s):
                    return (
                        4.0
                        if any(chart.distance(s, o.merchant.space) <= 1 for o in self.prey())
                        else 0.0
                    )

                def later(s):
                    return 0.5 * self.raid_value(s, False)

            value += max(self._best_reach(s, points, now, later) for s, points in starts)
        navy_space = self.obs.navies.get(payload.navy)
        if navy_space:

            def sink_now(s):
                return (
                    2.5
                    if any(
                        o.pirate.HasField("space") and chart.distance(s, o.pirate.space) <= 1
                        for o in self.others
                    )
                    else 0.0
                )

            value += self._best_reach(navy_space, payload.navy_move, sink_now, lambda s: 0.0)
        return value

    def _best_reach(self, start: int, points: int, now, later) -> float:
        """The best of earning `now(s)` on a space within `points`, or `later(s)` from there."""
        best_now, best_later = 0.0, -float(UNREACHABLE)
        for space in self.chart.within(start, points):
            best_now = max(best_now, now(space))
            best_later = max(best_later, later(space))
        return best_now + 0.3 * best_later

    def _choose_ship(self, key: str, payload) -> float:
        return {"merchant": 3.0, "pirate": 2.0, "navy": 1.0}.get(payload.ship, 0.0)

    def _choose_action(self, key: str, payload) -> float:
        if key == "pass":
            return 0.0
        action = payload.action
        if action == "deliver":
            cargo = self.me.merchant.cargo
            return self.chart.price(payload.port, cargo[0]) * len(cargo) + 1 if cargo else 1.0
        if action == "top_up":
            return 3.0 - len(self.me.merchant.cargo)
        if action == "bury":
            space = self.me.pirate.space
            return 1 + self.chart.beaches.get(space, 4) * len(self.me.pirate.cargo)
        victim = self.obs.seats[payload.seat]
        if action == "attack":
            return 4 + 0.1 * victim.money + len(victim.merchant.cargo) * 0.1
        return 3 + 2 * len(victim.pirate.cargo) + 0.1 * victim.money  # sink, broadside, ...

    def _move_ship(self, key: str, payload) -> float:
        current = self.obs.current
        ref = current.ship
        kind = ref.split(":")[0]
        if payload.HasField("space"):
            space, steps = payload.space, payload.steps
        else:  # stop: where the ship is now
            space, steps = self._space_of(ref), 0
        may_act = not current.actions
        if kind == "merchant":
            cargo = self.me.merchant.cargo
            sale = self.sale_value(space, cargo) if may_act else 0.0
            value = (20 + sale) if sale else self.route_value(space, cargo)
            return value - 1.5 * self.pirate_threat(space) - 0.01 * steps
        if kind == "pirate":
            pirate = self.me.pirate
            if not space:  # staying in a distant sea: judged from its entry spaces
                return max(self._pirate_value(s, False) for s in self.chart.zones[pirate.zone]) - 1
            return self._pirate_value(space, may_act) - 0.01 * steps
        return self.hunt_value(space, may_act) - 0.01 * steps

    def _choose_destination(self, key: str, payload) -> float:
        return 0.0  # only free-move cards ask this, and the bot does not play them

    def _pirate_value(self, space: int, may_act: bool) -> float:
        cargo = self.me.pirate.cargo
        if cargo:
            return self.burial_value(space, len(cargo), may_act)
        return self.raid_value(space, may_act)

    def _space_of(self, ref: str) -> int:
        """The ship's space; 0 for a pirate waiting in a distant sea."""
        kind, who = ref.split(":")
        if kind == "navy":
            return self.obs.navies[who]
        return getattr(self.obs.seats[int(who)], kind).space

    def _play_fortune(self, key: str, payload) -> float:
        if key == "pass" or not payload.HasField("card"):
            return 0.0
        card = self.chart.fortune[payload.card]
        if card.effect in ("steal", "objective"):
            return 5.0
        if card.effect == "boost":
            kinds = {name.split(".")[0] for name in card.boosts}
            return 2.0 if kinds & set(PLAYED_BOOSTS) else -1.0
        return -1.0

    def _choose_target(self, key: str, payload) -> float:
        if payload.target in ("seat", "merchant", "pirate") and payload.HasField("seat"):
            return self.obs.seats[payload.seat].money
        return 0.0

    def _discard_fortune(self, key: str, payload) -> float:
        card = self.chart.fortune[payload.card]
        return -USEFUL_FORTUNE.get(card.effect, 1.0)

    def _buy(self, key: str, payload) -> float:
        if payload.buy == "victory":
            return 100.0
        if payload.buy == "development":
            return float(payload.cost)
        return 0.0

    def _name_port(self, key: str, payload) -> float:
        return float(sum(self.chart.ports[payload.port].buys.values()))


if __name__ == "__main__":
    run(BlackFleetGreedy())
