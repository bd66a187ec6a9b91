"""A greedy Blackbeard bot: loot the rich seas, cash the Booty, retire rich, strike at leaders.

    python example_bots/blackbeard_greedy.py --port 50063

Every decision scores each option with a one-step heuristic on the typed observation
(`request.blackbeard`) and the option payloads, using the static board sent with the first
request (`match_info.blackbeard`: the map, the ports, the Pirate cards, the Event cards)
and the public rule figures below (the Cargo Table, warships, King's Commissioners):

- its own turn: the richest Actions card; each Action goes to the pirate and Action worth
  the most: Loot a located merchant, Locate one when an Action is left to Loot it, attack a
  port when the odds are good, cash the Booty where it pays 1:1 (a Letter of Marque is
  taken in a European port to make it pay, and to retire there), and retire once the Net
  Worth makes it worth it (retirement scores Notoriety + Net Worth; a pirate still afloat
  at the end scores only his Notoriety); moves head for merchants, or for a cash port and
  a retirement port when the holds are full or the pirate is notorious enough to draw the
  King's Commissioners (a KC that kills him scores half his Notoriety for its player);
- the anti-pirate windows (`anti_pirate`, INTERRUPT): it strikes at another player's
  Active Pirate when the act is worth its one AP Action: KC Reactions always, a patrolling
  warship or a Warship Sighting against a pirate at sea, a KC deployment when his
  Notoriety makes the 3d6 likely, a Mutiny Conspiracy against a low Crew Loyalty, Storm at
  Sea or Merchant Fights Back against a Loot, the Informer or an Oust against cashing and
  retiring, the richer and more notorious the pirate (and his owner's score) the sooner;
- as the Pirate Player it evades or fights by the odds of the dice, and surrenders to a
  KC that caught him when it holds a Letter of Marque and the battle is hopeless.

There is no randomness: the same request always gets the same answer. Against two
random bots (`example_bots/random_bot.py`, seeded apart) in 3-player games it won 187 of
201 games (93%; mean score 51 against 15 and 13, no incidents) with the command below,
every seat in turn:

    admiralty tournament run blackbeard --players 3 --rounds 67 --seed 1 \\
        --bot example_bots/blackbeard_greedy.py --bot example_bots/random_bot.py \\
        --bot "example_bots/random_bot.py --seed 1" --db /tmp/bb.db --records /tmp/bb-rec
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from itertools import product

from admiralty_sdk import Bot, run

# ------------------------------------------------------------------ public rule figures

CARGO = {  # the Cargo Table: 1d6 + Cargo Value -> doubloons, by the area's column
    "atlantic": (0, 100, 200, 300, 400, 500, 600, 700, 800, 1000),
    "caribbean": (100, 400, 600, 800, 1000, 1200, 1300, 1500, 2500, 3000),
    "africa": (50, 150, 300, 500, 600, 700, 800, 1000, 1200, 1500),
    "india": (500, 1000, 1200, 1500, 1800, 2000, 2500, 3000, 4000, 7500),
}
COLUMN = {
    "NA": "atlantic",
    "CA": "atlantic",
    "SA": "atlantic",
    "WC": "caribbean",
    "EC": "caribbean",
    "CM": "caribbean",
    "SM": "caribbean",
    "GC": "africa",
    "EA": "africa",
    "IN": "india",
}
WARSHIPS = {
    **{f"W{n:02}": (4, 7) for n in range(1, 7)},
    **{f"W{n:02}": (3, 9) for n in range(7, 13)},
    **{f"W{n:02}": (2, 11) for n in range(13, 16)},
}
"""(Speed, Combat) of each warship counter."""
KCS = {
    "K1": (3, 11),
    "K2": (3, 12),
    "K3": (4, 9),
    "K4": (5, 8),
    "K5": (3, 10),
    "K6": (4, 10),
    "K7": (2, 12),
    "K8": (5, 7),
    "KX": (4, 10),
}
"""(Speed, Combat) of each King's Commissioner."""
EUROPEAN = frozenset({"english", "spanish", "french", "dutch", "portuguese"})
AVERAGE_CARGO_VALUE = 2
LOCATE_TARGET = 7
MAP_LIMIT = {2: 4, 3: 3, 4: 2, 5: 2}

# ------------------------------------------------------------------ how much things are worth

BOOTY_VP = 0.6
"""VP per 100 doubloons of Booty in a hold: it must still be cashed and retired."""
NET_WORTH_VP = 0.85
"""VP per 100 doubloons of Net Worth: it still needs a retirement."""
KEEP_PIRATE = 4.0
"""What a pirate afloat is worth beyond his Notoriety: the Actions still to come."""
HOLD_CARD = {
    "warship_sighting": 2.5,
    "informer": 2.0,
    "mutiny_conspiracy": 2.0,
    "storm_at_sea": 1.5,
    "kc_surprise": 1.5,
    "pirate_converts": 1.5,
    "debauchery_and_revelry": 1.0,
    "merchant_fights_back": 1.0,
    "skull_and_crossbones": 1.5,
    "letter_of_marque": 2.0,
    "scurvy_outbreak": 0.5,
    "piratical_ambition": 0.5,
    "doldrums": 0.3,
    "wear_and_tear": 0.2,
}
"""What keeping an Event card in hand is worth (for the windows, or its Event)."""
HOME_STEP = 4.0
"""The worth of each step nearer a cash and retirement port, for a pirate headed home."""
RETIRE_NOTORIETY = 14
"""Notoriety from which a pirate heads for retirement: a KC is then brought in against
him nine times in ten, and his death would give its controller half his NP."""
PASS_BAR = 1.0
"""An anti-pirate act must be worth more than this (its AP Action, or its card)."""


def d6_at_least(target: int) -> float:
    """P(1d6 >= target)."""
    return min(max(7 - target, 0), 6) / 6


def contest(bonus: int, dice: int = 1, against_dice: int = 1, ties_win: bool = False) -> float:
    """P(`dice`d6 + bonus > `against_dice`d6) (>= when ties win)."""
    mine, theirs = _sums(dice), _sums(against_dice)
    total = 0.0
    for a, pa in mine.items():
        for b, pb in theirs.items():
            if a + bonus > b or (ties_win and a + bonus == b):
                total += pa * pb
    return total


_SUMS: dict[int, dict[int, float]] = {}


def _sums(dice: int) -> dict[int, float]:
    if dice not in _SUMS:
        out: dict[int, float] = {}
        for faces in product(range(1, 7), repeat=dice):
            out[sum(faces)] = out.get(sum(faces), 0.0) + 6.0**-dice
        _SUMS[dice] = out
    return _SUMS[dice]


def three_d6_below(value: int) -> float:
    return sum(p for s, p in _sums(3).items() if s < value)


def expected_cargo(area: str, cargo_value: int | None) -> float:
    """Expected doubloons of a Loot in `area` (an unknown merchant: an average one)."""
    column = CARGO[COLUMN.get(area, "atlantic")]
    value = AVERAGE_CARGO_VALUE if cargo_value is None else cargo_value
    return sum(column[min(roll + value, 10) - 1] for roll in range(1, 7)) / 6


# ------------------------------------------------------------------ the static board


@dataclass
class Board:
    """The static facts the bot plans with, from `match_info.blackbeard`."""

    neighbours: dict[str, tuple[str, ...]]
    ports: dict[int, object]
    port_areas: dict[int, tuple[str, ...]]
    ratings: dict[str, dict[str, int]]
    cards: dict[int, tuple[str, str, object]]
    """number -> (key, class, actions: an int, "diamond" or "dash")"""
    distance: dict[tuple[str, str], int] = field(default_factory=dict)

    @classmethod
    def from_pb(cls, board) -> Board:
        neighbours = {a.id: tuple(a.neighbours) for a in board.areas}
        neighbours.update({t.id: tuple(t.neighbours) for t in board.transits})
        ratings = {
            p.id: {
                "initiative": p.initiative,
                "ability": p.ability,
                "leadership": p.leadership,
                "cruelty": p.cruelty,
                "cunning": p.cunning,
                "duel": p.duel,
            }
            for p in board.pirates
        }
        cards = {}
        for card in board.events:
            value = card.actions
            actions: object = (
                int(value.number_value) if value.HasField("number_value") else value.string_value
            )
            cards[card.number] = (card.key, card.card_class, actions)
        made = cls(
            neighbours,
            {p.code: p for p in board.ports},
            {p.code: tuple(p.areas) for p in board.ports},
            ratings,
            cards,
        )
        for start in neighbours:
            seen = {start: 0}
            queue = deque([start])
            while queue:
                here = queue.popleft()
                for near in neighbours[here]:
                    if near not in seen:
                        seen[near] = seen[here] + 1
                        queue.append(near)
            for end, steps in seen.items():
                made.distance[start, end] = steps
        return made

    def steps(self, start: str, end: str) -> int:
        return self.distance.get((start, end), 9)

    def actions(self, card: int, initiative: int) -> int:
        actions = self.cards[card][2]
        if actions == "diamond":
            return initiative
        return actions if isinstance(actions, int) else 0


# ------------------------------------------------------------------ the bot


@dataclass
class Memory:
    """What one seat of one match remembers between requests."""

    turn: int = -1
    actions_used: bool = False
    booty: int = 0
    """The last Booty amount announced for this seat's pirate (loot, port, grab)."""
    pirate: str | None = None
    """The pirate last chosen to act: the choose_action and target requests are his."""


class BlackbeardGreedy(Bot):
    name = "blackbeard-greedy"
    version = "1.0"
    games = ("blackbeard",)

    def __init__(self) -> None:
        self._boards: dict[str, Board] = {}
        self._board: Board | None = None
        self._memory: dict[tuple[str, int], Memory] = {}

    def on_match_start(self, request) -> None:
        key = request.match_info.rules_hash
        if key not in self._boards:
            self._boards[key] = Board.from_pb(request.match_info.blackbeard)
        self._board = self._boards[key]

    def on_match_over(self, message) -> None:
        self._memory.pop((message.result.match_id, message.seat), None)

    def decide(self, request) -> int:
        if self._board is None:  # joined without match info: nothing to plan with
            return 0
        memory = self._memory.setdefault((request.match_id, request.seat), Memory())
        turn = _Decision(self._board, request, memory)
        scores = [turn.score(option) for option in request.options]
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        turn.chosen(request.options[best])
        return best


class _Decision:
    """One decision: the board, the observation, and a scorer per request kind."""

    def __init__(self, board: Board, request, memory: Memory):
        self.board = board
        self.request = request
        self.kind = request.kind
        self.obs = request.blackbeard
        self.seat = request.seat
        self.memory = memory
        if memory.turn != self.obs.turn:
            memory.turn, memory.actions_used = self.obs.turn, False
        for event in request.events:
            if event.kind in (
                "loot_rolled",
                "port_booty",
                "booty_grab_take",
                "treasure_dug",
                "ransomed",
            ):
                data = event.data
                amount = data["booty"] if "booty" in data else data["doubloons"]
                memory.booty = int(amount)
        self.pirates = {p.id: p for p in self.obs.pirates}
        self.mine = [p for p in self.obs.pirates if p.owner == self.seat]
        self.me = self.obs.players[self.seat]
        self.hand = list(self.me.hand)
        self.ports = {p.code: p for p in self.obs.ports}
        self.players = len(self.obs.players)
        self.late = self.obs.pardons >= 2

    def score(self, option) -> float:
        scorer = getattr(self, f"_{self.kind}", None)
        if scorer is None:
            return 0.0
        payload = option.blackbeard if option.WhichOneof("typed") == "blackbeard" else None
        return scorer(option.key, payload)

    def chosen(self, option) -> None:
        if self.kind == "use_card" and option.key in ("use:actions", "use:event_and_action"):
            self.memory.actions_used = True
        if self.kind == "choose_card" and option.key.startswith("fallback:"):
            self.memory.actions_used = True
        if self.kind == "choose_pirate" and option.key.startswith("pirate:"):
            self.memory.pirate = option.key.split(":", 1)[1]

    # -- facts about pirates and ports ---------------------------------------------------

    def rating(self, pid: str, name: str) -> int:
        return self.board.ratings[pid][name]

    def attitude(self, pirate, code: int) -> str:
        port = self.board.ports[code]
        state = self.ports.get(code)
        if state is not None and state.destroyed:
            return "destroyed"
        if port.pirate_port:
            return "pirate_port"
        if state is not None and state.safe_haven == pirate.id:
            return "safe_haven"
        if port.nation in pirate.ship.attack_history:
            return "anti"
        if pirate.ship.HasField("letter_of_marque") and port.nation == pirate.ship.letter_of_marque:
            return "pro"
        if state is None or not state.HasField("side"):
            return "neutral"
        return state.side

    def cash_rate(self, pirate, code: int) -> float:
        """Net Worth per doubloon of Booty cashed there (0: no cashing there)."""
        return {"pirate_port": 0.9, "pro": 1.0, "safe_haven": 1.1, "neutral": 0.5}.get(
            self.attitude(pirate, code), 0.0
        )

    def retire_rate(self, pirate, code: int) -> float:
        """VP per 100 doubloons of Net Worth of a retirement there (0: none)."""
        port = self.board.ports[code]
        state = self.ports.get(code)
        if state is not None and state.destroyed:
            return 0.0
        if port.pirate_port:
            return 0.5
        lom = pirate.ship.letter_of_marque if pirate.ship.HasField("letter_of_marque") else None
        if port.nation and port.nation == lom and not pirate.HasField("ally"):
            return 1.0
        if (
            self.obs.pardon_in_force
            and port.nation == "english"
            and "english" not in pirate.ship.attack_history
        ):
            return 1.0
        if state is not None and state.safe_haven == pirate.id:
            return 0.85
        return 0.0

    @staticmethod
    def booty(pirate) -> int:
        return sum(pirate.ship.holds)

    def wealth(self, pirate) -> float:
        """What a pirate would take with him if he died: his Net Worth and Booty in VP."""
        return pirate.net_worth / 100 + self.booty(pirate) / 100 * 0.7

    def full(self, pirate) -> bool:
        return all(pirate.ship.holds)

    def ports_in(self, area: str) -> list[int]:
        return [code for code, areas in self.board.port_areas.items() if area in areas]

    def merchant_value(self, pirate, merchant, area: str) -> float:
        """A merchant's worth to `pirate` if looted: the Booty he could keep, and its NP."""
        value = merchant.cargo_value if merchant.face_up else None
        booty = expected_cargo(area, value)
        if self.full(pirate):
            booty = max(0.0, booty - min(pirate.ship.holds))
        return booty / 100 * BOOTY_VP + (AVERAGE_CARGO_VALUE if value is None else value)

    def sea_value(self, pirate, area: str) -> float:
        """What a pirate at sea in `area` may earn there next: merchants, weak ports."""
        if area not in COLUMN:
            return 0.0
        best = 0.0
        ability = self.rating(pirate.id, "ability")
        for merchant in self.obs.merchants:
            if area not in self.board.port_areas[merchant.port]:
                continue
            chance = d6_at_least(LOCATE_TARGET - ability - (1 if merchant.face_up else 0))
            if merchant.located_by == pirate.id:
                chance = 1.0
            best = max(best, chance * self.merchant_value(pirate, merchant, area))
        for code in self.ports_in(area):
            best = max(best, 0.8 * self.attack_value(pirate, code))
        return best

    def danger(self, pirate, area: str) -> float:
        """Threats in `area` to a pirate worth something: KCs of others, warships."""
        risk = 0.0
        for kc in self.obs.kcs:
            if kc.owner == pirate.owner:
                continue
            if kc.area == area:
                risk += 1.0
            elif self.board.steps(kc.area, area) == 1:
                risk += 0.5
        if area in self.obs.patrols:
            risk += 0.5
        return risk * (1 + self.wealth(pirate) / 10 + pirate.notoriety / 10)

    def wants_home(self, pirate) -> bool:
        """Full holds, a fortune aboard, fame that draws the King's Commissioners, or a
        late game: time to cash and retire."""
        booty = self.booty(pirate)
        return (
            self.full(pirate)
            or booty >= 2000
            or pirate.net_worth >= 1000
            or pirate.notoriety >= RETIRE_NOTORIETY
            or (self.late and booty + pirate.net_worth > 300)
            or pirate.ship.combat <= 2
        )

    def hunted(self, pirate) -> float:
        """What a KC kill of `pirate` would hand the other players: half his NP, by the
        odds a KC is brought in against him."""
        return pirate.notoriety / 2 * three_d6_below(pirate.notoriety)

    def home_value(self, pirate, code: int) -> float | None:
        """What being In Port at `code` is worth to a pirate headed home: his Booty cashed
        and a retirement (his Net Worth in VP, and a KC kill denied), less the Actions it
        takes; None where he may not go or gains nothing."""
        if self.attitude(pirate, code) in ("anti", "destroyed"):
            return None
        booty = self.booty(pirate)
        rate, retire = self.cash_rate(pirate, code), self.retire_rate(pirate, code)
        if not rate and not retire:
            return None
        if retire:
            worth = (pirate.net_worth + booty * rate) / 100 * retire + self.hunted(pirate)
            worth -= 1.0  # the retirement's Action
        else:
            worth = booty * rate / 100 * NET_WORTH_VP
        if booty and rate:
            worth -= 1.0  # the In-Port Activities
            if self.attitude(pirate, code) == "pirate_port":
                worth -= 2.0  # the Debauchery that follows, two Recovers
        return worth

    def area_value(self, pirate, area: str) -> float:
        """A pirate's prospects at sea in `area` (a move's destination)."""
        if area not in COLUMN:
            return -0.5  # a Transit Box: on the way only
        if self.wants_home(pirate):
            best = -99.0
            for code in self.board.ports:
                worth = self.home_value(pirate, code)
                if worth is None:
                    continue
                steps = min(self.board.steps(area, a) for a in self.board.port_areas[code])
                best = max(best, worth - HOME_STEP * (steps + 1))
            return best - self.danger(pirate, area)
        best = -99.0
        for other in COLUMN:
            steps = self.board.steps(area, other)
            best = max(best, self.sea_value(pirate, other) - 1.2 * steps)
        return best - self.danger(pirate, area) + (0.2 if COLUMN[area] == "caribbean" else 0)

    def attack_value(self, pirate, code: int) -> float:
        """The expected worth of attacking port `code` now, from At Sea."""
        port = self.board.ports[code]
        state = self.ports.get(code)
        if port.pirate_port or (state is not None and state.destroyed):
            return -9.0
        score = (
            pirate.ship.combat
            + self.rating(pirate.id, "ability")
            + pirate.information.get(str(code), 0)
        )
        dice = 2 if state is not None and state.attacked else 1
        win = contest(score - port.defense, 1, dice)
        gain = 2 * port.value + port.value * 3.5 * BOOTY_VP - 0.6
        cost = 1.0 + (
            6.0
            if pirate.ship.HasField("letter_of_marque")
            and pirate.ship.letter_of_marque == port.nation
            else 0.0
        )
        expected_hits = max(1.0, port.defense + 3.5 * dice - score - 3.5)
        sink = pirate.ship.combat <= expected_hits + 1
        lose = expected_hits * 0.8 + (self.wealth(pirate) + KEEP_PIRATE if sink else 0)
        return win * gain - (1 - win) * lose - cost

    def locate_chance(self, pirate, merchant) -> float:
        return d6_at_least(
            LOCATE_TARGET - self.rating(pirate.id, "ability") - (1 if merchant.face_up else 0)
        )

    # -- the plan of one pirate's next Action ------------------------------------------

    def action_value(self, pirate, action: str) -> float:
        """The worth of `action` for `pirate` with its best target."""
        values = self.targets_of(pirate, action)
        return max(values.values()) if values else -9.0

    def targets_of(self, pirate, action: str) -> dict[object, float]:
        here = pirate.area
        if action == "move":
            out: dict[object, float] = {}
            now = self.stay_value(pirate)
            if pirate.HasField("port"):
                for area in (here, *self.board.neighbours.get(here, ())):
                    if area in COLUMN:
                        out[area] = self.area_value(pirate, area) - now
                return out
            for near in self.board.neighbours.get(here, ()):
                out[near] = self.area_value(pirate, near) - now - 0.3
            for code in self.ports_in(here):
                out[code] = self.enter_value(pirate, code) - now - 0.3
            return out
        values = self.action_targets(pirate, action)
        if self.wants_home(pirate) and action in ("locate", "loot", "attack"):
            return {key: value * 0.4 - 1.0 for key, value in values.items()}
        return values

    def action_targets(self, pirate, action: str) -> dict[object, float]:
        here = pirate.area
        if action == "locate":
            if self.obs.actions_left < 2:
                return {m.port: -0.5 for m in self.obs.merchants}
            return {
                m.port: 0.9 * self.locate_chance(pirate, m) * self.merchant_value(pirate, m, here)
                for m in self.obs.merchants
                if here in self.board.port_areas[m.port]
            }
        if action == "loot":
            return {
                m.port: self.merchant_value(pirate, m, here) + 1.0
                for m in self.obs.merchants
                if m.located_by == pirate.id
                or (pirate.HasField("ally") and m.located_by == pirate.ally)
            }
        if action == "attack":
            return {code: self.attack_value(pirate, code) for code in self.ports_in(here)}
        if action == "in_port":
            return {None: self.in_port_value(pirate)}
        if action == "retire":
            return {None: self.retire_value(pirate)}
        if action == "sack":
            port = self.board.ports[pirate.port]
            win = 1 - d6_at_least(port.defense - self.rating(pirate.id, "cruelty") + 1)
            return {None: win * 2 * port.value - 2.0}
        if action == "recover":
            return {None: 3.0}
        if action == "dig":
            return {None: 7.0}
        if action == "grab":
            return {
                p.id: self.booty(p) / 100 * 0.3
                for p in self.obs.pirates
                if p.owner != self.seat and p.HasField("port") and p.port == pirate.port
            }
        return {}

    def stay_value(self, pirate) -> float:
        if pirate.HasField("port"):
            return self.enter_value(pirate, pirate.port)
        return self.area_value(pirate, pirate.area) if pirate.area in COLUMN else -1.0

    def enter_value(self, pirate, code: int) -> float:
        """Being In Port at `code`: cashing and retiring there."""
        if self.attitude(pirate, code) in ("anti", "destroyed"):
            return -9.0
        bonus = 1.0 if self.lom_possible(pirate, code) else 0.0
        if self.wants_home(pirate):
            worth = self.home_value(pirate, code)
            return (-9.0 if worth is None else worth) + bonus
        rate = self.cash_rate(pirate, code)
        if rate < 1.0:
            rate = 0.0  # half price: not worth a stop yet
        return self.booty(pirate) * rate / 100 * NET_WORTH_VP - 1.0 + bonus

    def lom_possible(self, pirate, code: int) -> bool:
        port = self.board.ports[code]
        return (
            not pirate.ship.HasField("letter_of_marque")
            and port.nation in EUROPEAN
            and port.nation not in pirate.ship.attack_history
            and any(self.board.cards.get(c, ("",))[0] == "letter_of_marque" for c in self.hand)
        )

    def in_port_value(self, pirate) -> float:
        code = pirate.port
        rate = self.cash_rate(pirate, code)
        if rate < 1.0 and not self.wants_home(pirate):
            rate = 0.0
        worth = self.booty(pirate) * rate / 100 * NET_WORTH_VP
        worth += 0.4 * (self.damage(pirate))
        worth += len(pirate.ship.hostages) * 1.0
        if self.attitude(pirate, code) == "pirate_port" and self.booty(pirate):
            worth -= 2.0  # the Debauchery that follows
        retire = self.retire_rate(pirate, code)
        if (
            retire
            and rate
            and self.booty(pirate)
            and self.wants_home(pirate)
            and self.attitude(pirate, code) != "pirate_port"
        ):
            # cash before retiring here: the retirement then takes the Booty too
            worth = max(
                worth, self.retire_value(pirate) + self.booty(pirate) * rate / 100 * retire + 0.5
            )
        return worth - 0.3

    def damage(self, pirate) -> int:
        kind = {"sloop": (5, 5), "schooner": (6, 3), "brig": (7, 1)}.get(pirate.ship.type, (6, 3))
        return max(0, kind[0] - pirate.ship.combat) + max(0, kind[1] - pirate.ship.speed)

    def retire_value(self, pirate) -> float:
        """Retiring now: the Net Worth turned into VP, less what the pirate would still
        earn (his Notoriety is scored either way)."""
        if not pirate.HasField("port"):
            return -9.0
        rate = self.retire_rate(pirate, pirate.port) or 0.4
        worth = pirate.net_worth / 100 * rate
        worth -= self.booty(pirate) * self.cash_rate(pirate, pirate.port) / 100 * rate
        # (Booty aboard is lost: cash it first where it may be cashed)
        keep = 1.0 if self.late else KEEP_PIRATE
        return worth + self.hunted(pirate) - keep

    def best_plan(self, pirate) -> float:
        actions = [
            "move",
            "in_port",
            "retire",
            "attack",
            "loot",
            "locate",
            "sack",
            "recover",
            "dig",
            "grab",
        ]
        if pirate.ship.HasField("revelry"):
            actions = ["move", "recover"] if pirate.HasField("port") else ["move"]
        elif pirate.HasField("port"):
            if pirate.HasField("sack_pending") and pirate.sack_pending == pirate.port:
                actions = ["move", "sack", "grab"]
            else:
                actions = ["move", "in_port", "retire", "grab"]
        else:
            actions = ["move", "attack", "loot", "locate", "dig"]
        return max(self.action_value(pirate, a) for a in actions)

    # -- setup -------------------------------------------------------------------------------

    def pirate_worth(self, pid: str) -> float:
        r = self.board.ratings[pid]
        return (
            2 * r["ability"]
            + r["initiative"] * 1.5
            + r["leadership"]
            + 0.5 * r["duel"]
            + 0.5 * r["cunning"]
        )

    def _draft_pick(self, key: str, payload) -> float:
        return self.pirate_worth(payload.pirate)

    def _deploy_card(self, key: str, payload) -> float:
        if payload is None:  # pass
            return 0.0
        return 10 + self.pirate_worth(payload.pirate)

    _new_captain = _draft_pick

    def _deploy_area(self, key: str, payload) -> float:
        area = payload.area
        merchants = sum(1 for m in self.obs.merchants if area in self.board.port_areas[m.port])
        column = {"caribbean": 3.0, "india": 2.0, "africa": 1.0, "atlantic": 0.0}[COLUMN[area]]
        crowd = sum(1 for p in self.mine if p.area == area)
        pirate_port = any(self.board.ports[c].pirate_port for c in self.ports_in(area))
        return column + merchants - 1.5 * crowd + (0.5 if pirate_port else 0.0)

    def _deploy_ship(self, key: str, payload) -> float:
        return 1.0 if payload.ship == "sloop" else 0.0

    # -- card play -------------------------------------------------------------------------

    def initiative(self) -> int:
        return max((self.rating(p.id, "initiative") for p in self.mine), default=0)

    def card_key(self, card: int) -> str:
        return self.board.cards[card][0]

    def _choose_card(self, key: str, payload) -> float:
        if key == "end":
            return 0.5
        if key.startswith("dissolve"):
            return -5.0
        card = payload.card
        card_key, cls, _ = self.board.cards[card]
        keep = HOLD_CARD.get(card_key, 0.0)
        if key.startswith("fallback:"):
            return 2.0 - keep
        if self.memory.actions_used:
            if card_key == "letter_of_marque":
                return 3.0 if self.lom_target() is not None else -1.0
            return -1.0  # another Event: not worth the card
        if cls == "AND":
            return 2.0 + self.and_event_value(card_key) - keep
        actions = self.board.actions(card, self.initiative())
        if card_key == "letter_of_marque" and self.lom_target() is not None:
            return max(3.0 * actions - 0.5 * keep, 7.0)
        return 3.0 * actions - 0.5 * keep

    def and_event_value(self, key: str) -> float:
        if key == "careening":
            return 0.5 * max((self.damage(p) for p in self.mine), default=0)
        if key in ("fair_winds", "harbour_pilot", "heavy_guns"):
            return 1.0
        return 0.5

    def lom_target(self):
        """My pirate in a European port who would gain most from a Letter of Marque."""
        best, who = 0.0, None
        for pirate in self.mine:
            if pirate.HasField("port") and self.lom_possible(pirate, pirate.port):
                worth = 1.0 + self.booty(pirate) / 100 + pirate.net_worth / 100
                if worth > best:
                    best, who = worth, pirate
        return who

    def _use_card(self, key: str, payload) -> float:
        if payload.use == "event" and self.lom_target() is not None:
            others = [
                c
                for c in self.hand
                if self.board.cards[c][1] != "MPI"
                and self.card_key(c) != "letter_of_marque"
                and self.board.actions(c, self.initiative()) >= 2
            ]
            return 5.0 if others else 1.0
        return {"actions": 3.0, "event_and_action": 3.0, "event": 0.0}[payload.use]

    def _diamond_pirate(self, key: str, payload) -> float:
        return self.rating(payload.pirate, "initiative")

    def _event_pirate(self, key: str, payload) -> float:
        pirate = self.pirates.get(payload.pirate)
        if pirate is None:
            return 0.0
        return self.wealth(pirate) + self.damage(pirate) + pirate.notoriety / 10

    def _lom_nation(self, key: str, payload) -> float:
        return 0.0

    def _event_port(self, key: str, payload) -> float:
        pirate = max(self.mine, key=self.wealth, default=None)
        return self.enter_value(pirate, payload.port) if pirate is not None else 0.0

    def _fair_winds_step(self, key: str, payload) -> float:
        if key == "stop":
            return 0.0
        pirate = (
            self.pirates.get(self.obs.active_pirate) if self.obs.HasField("active_pirate") else None
        )
        pirate = pirate or (self.mine[0] if self.mine else None)
        if pirate is None:
            return 0.0
        target = payload.target
        if target.HasField("number_value"):
            return self.enter_value(pirate, int(target.number_value))
        return self.area_value(pirate, target.string_value) - self.stay_value(pirate)

    # -- Actions -------------------------------------------------------------------------------

    def _choose_pirate(self, key: str, payload) -> float:
        if key == "stop":
            return 0.0
        if key == "k":
            return self.k_value()
        if key.startswith("dissolve"):
            return -5.0
        pirate = self.pirates[payload.pirate]
        return self.best_plan(pirate)

    def k_value(self) -> float:
        room = MAP_LIMIT.get(self.players, 2) - len(self.mine)
        if room <= 0:
            return -1.0
        return (4.0 if self.me.pirate_cards else 2.0) - (2.0 if self.late else 0.0)

    def acting(self):
        pid = self.obs.active_pirate if self.obs.HasField("active_pirate") else None
        if pid in self.pirates:
            return self.pirates[pid]
        return None

    def _choose_action(self, key: str, payload) -> float:
        pirate = self.chosen_pirate()
        if pirate is None:
            return 0.0
        return self.action_value(pirate, payload.action)

    def chosen_pirate(self):
        """The pirate a choose_action / target request is about: from the prompt's
        context (the pirate whose Action it is, else the best of mine)."""
        pirate = self.acting()
        if pirate is not None and pirate.owner == self.seat:
            return pirate
        # choose_action comes before the Action is announced: the best-planned pirate
        candidates = [p for p in self.mine]
        if not candidates:
            return None
        names = {p.id for p in candidates}
        if self.memory.pirate in names:
            return self.pirates[self.memory.pirate]
        return max(candidates, key=self.best_plan)

    def _targets(self, key: str, payload, action: str) -> float:
        pirate = self.chosen_pirate()
        if pirate is None:
            return 0.0
        target = payload.target
        if target.HasField("number_value"):
            value: object = int(target.number_value)
        else:
            value = target.string_value
        return self.targets_of(pirate, action).get(value, -5.0)

    def _move_to(self, key: str, payload) -> float:
        return self._targets(key, payload, "move")

    def _locate_target(self, key: str, payload) -> float:
        return self._targets(key, payload, "locate")

    def _loot_target(self, key: str, payload) -> float:
        return self._targets(key, payload, "loot")

    def _attack_target(self, key: str, payload) -> float:
        return self._targets(key, payload, "attack")

    def _grab_target(self, key: str, payload) -> float:
        victim = self.pirates.get(payload.target.string_value)
        return self.booty(victim) if victim is not None else 0.0

    def _ally_target(self, key: str, payload) -> float:
        return 0.0

    def _retire(self, key: str, payload) -> float:
        return {"B": 5.0, "C": 5.0, "D1": 4.0, "A": 3.0, "D2": 1.0}.get(
            payload.target.string_value, 0.0
        )

    def _pay_retirement(self, key: str, payload) -> float:
        pirate = self.chosen_pirate()
        price = _number(self.request.prompt)
        if pirate is None or price is None:
            return 1.0 if payload.pay else 0.0
        left = (pirate.net_worth - price) / 100
        return (left - (1.0 if self.late else KEEP_PIRATE)) if payload.pay else 0.0

    def _pay_safe_haven(self, key: str, payload) -> float:
        pirate = self.chosen_pirate()
        price = _number(self.request.prompt)
        if pirate is None or price is None or not payload.pay:
            return 0.0
        return 1.0 if price * 2 <= pirate.net_worth else -1.0

    def _safe_haven(self, key: str, payload) -> float:
        pirate = self.chosen_pirate()
        if pirate is None or not payload.yes:
            return 0.0
        return 1.0 if pirate.net_worth >= 800 and not self.late else -1.0

    def _loot_keep(self, key: str, payload) -> float:
        return 1.0 if payload.keep else 0.0

    def _cargo_hold(self, key: str, payload) -> float:
        if key == "leave":
            return 0.0
        if payload.HasField("convert"):
            return -1.0
        if not payload.dump:
            return 10.0 - payload.hold * 0.01
        return (self.memory.booty - payload.dump) / 100

    _attack_hold = _cargo_hold
    _share_hold = _cargo_hold

    def _dump_cargo(self, key: str, payload) -> float:
        pirate = self.chosen_pirate()
        if pirate is None:
            return 0.0
        holds = pirate.ship.holds
        return -holds[payload.hold] if payload.hold < len(holds) else 0.0

    def _into(self, key: str, payload) -> float:
        return -payload.hold

    _ransom_hold = _grab_hold = _treasure_hold = _into

    def _spoil_hold(self, key: str, payload) -> float:
        return 1.0 - payload.hold * 0.01 if key != "skip" else 0.0

    def _hostage_fate(self, key: str, payload) -> float:
        return 1.0 if payload.fate == "torture" else 0.0

    def _ransom(self, key: str, payload) -> float:
        return 1.0 if payload.yes else 0.0

    def _spoil_item(self, key: str, payload) -> float:
        return 1.0 if payload.yes else 0.0

    def _spoils(self, key: str, payload) -> float:
        return 1.0 if payload.spoils == "take" else 0.0

    def _duel_again(self, key: str, payload) -> float:
        return 0.5 if payload.yes else 0.0

    def _revelry(self, key: str, payload) -> float:
        pirate = self.acting() or self.chosen_pirate()
        low = pirate is not None and pirate.ship.loyalty <= 3
        return (1.0 if low else -1.0) if payload.yes else 0.0

    def _cash_holds(self, key: str, payload) -> float:
        return len(payload.holds)

    def _repair_split(self, key: str, payload) -> float:
        pirate = self.chosen_pirate()
        weight = 1.3 if pirate is not None and pirate.ship.combat <= pirate.ship.speed else 0.8
        return payload.combat * weight + payload.speed

    def _draw_or_deploy(self, key: str, payload) -> float:
        if key == "draw":
            return 1.0
        return 2.0 + self.pirate_worth(payload.pirate) / 10

    def _deploy_drawn(self, key: str, payload) -> float:
        return 1.0 if payload.deploy else 0.0

    def _alliance_hit(self, key: str, payload) -> float:
        pirate = self.pirates.get(payload.target.string_value)
        return pirate.ship.combat if pirate is not None else 0.0

    def _bermuda_area(self, key: str, payload) -> float:
        return 1.0 if payload.area == "CA" else 0.0

    def _hold_order(self, key: str, payload) -> float:
        return 0.0

    def _challenger(self, key: str, payload) -> float:
        return self.rating(payload.target.string_value, "duel")

    # -- roll points -------------------------------------------------------------------------

    def _cunning(self, key: str, payload) -> float:
        match = re.search(r"Re-roll the (.+) roll \((\d+)\)", self.request.prompt)
        if match is None or not payload.reroll:
            return 0.0
        what, roll = match.group(1), int(match.group(2))
        pirate = self.acting()
        if what == "mutiny":
            leadership = self.rating(pirate.id, "leadership") if pirate else 3
            return 1.0 if roll > leadership else -1.0
        if what in ("retire", "safe haven", "repair"):
            return -1.0
        dice = 2 if what in ("ransom",) else 1
        return 1.0 if roll <= 2 * dice else -1.0

    def _skull_and_crossbones(self, key: str, payload) -> float:
        if not payload.play:
            return 0.0
        what = self.request.prompt
        return 1.0 if any(w in what for w in ("battle", "evade", "attack roll")) else -1.0

    # -- the Pirate Player under attack ------------------------------------------------------

    def my_fighter(self):
        pirate = self.acting()
        if pirate is None or pirate.owner != self.seat:
            return None
        return pirate

    def foe(self, pirate, kind: str) -> tuple[int, int, int]:
        """(speed, combat, interception modifier) of the warship or KC attacking him."""
        if kind == "warship":
            warship = self.obs.interference.sighted or self.obs.patrols.get(pirate.area, "")
            return (*WARSHIPS.get(warship, (3, 9)), 0)
        for kc in self.obs.kcs:
            if kc.owner != self.seat and kc.area == pirate.area:
                return (*KCS.get(kc.id, (4, 10)), 0)
        return 4, 10, 0

    def fight_odds(self, pirate, combat: int) -> float:
        score = (
            pirate.ship.combat
            + self.rating(pirate.id, "ability")
            - (2 if pirate.ship.HasField("revelry") else 0)
        )
        return contest(score - combat)

    def evade_odds(self, pirate, speed: int, modifier: int) -> float:
        mine = pirate.ship.speed - (2 if pirate.ship.HasField("revelry") else 0)
        return contest(mine - speed - modifier, ties_win=True)

    def _warship_attack(self, key: str, payload) -> float:
        pirate = self.my_fighter()
        if pirate is None:
            return 0.0
        speed, combat, _ = self.foe(pirate, "warship")
        win = self.fight_odds(pirate, combat)
        hits = max(
            1.0, combat + 3.5 - pirate.ship.combat - self.rating(pirate.id, "ability") - 3.5 + 1
        )
        sink = pirate.ship.combat <= hits + 1
        fight = win * (combat - 0.6) - (1 - win) * (
            hits * 0.8 + 1.5 + (self.wealth(pirate) + KEEP_PIRATE if sink else 0)
        )
        if key == "fight":
            return fight
        escape = self.evade_odds(pirate, speed, 0)
        return escape * -1.0 + (1 - escape) * fight

    def kc_battle(self, pirate) -> tuple[float, float]:
        """(fight, surrender): a battle with the KC that caught him (won: 2 x its Combat
        in NP; lost: he dies, his Net Worth and Booty are lost and the KC's player scores
        half his NP), and a surrender with his Letter of Marque (a retirement that also
        gives the KC's player half his NP)."""
        _, combat, _ = self.foe(pirate, "kc")
        win = self.fight_odds(pirate, combat)
        fight = win * 2 * combat - (1 - win) * (
            self.wealth(pirate) + KEEP_PIRATE + pirate.notoriety / 2
        )
        surrender = pirate.net_worth / 100 - KEEP_PIRATE - pirate.notoriety / 2
        return fight, surrender

    def _kc_attack(self, key: str, payload) -> float:
        pirate = self.my_fighter()
        if pirate is None:
            return 0.0
        fight, surrender = self.kc_battle(pirate)
        if key == "fight":
            return fight
        if pirate.ship.HasField("letter_of_marque") and not pirate.HasField("ally"):
            fight = max(fight, surrender)  # caught, he may still surrender
        speed, _, modifier = self.foe(pirate, "kc")
        escape = self.evade_odds(pirate, speed, modifier)
        return escape * -1.0 + (1 - escape) * fight

    def _kc_surrender(self, key: str, payload) -> float:
        pirate = self.my_fighter()
        if pirate is None:
            return 0.0
        fight, surrender = self.kc_battle(pirate)
        return fight if key == "fight" else surrender

    def _sighting_attack(self, key: str, payload) -> float:
        return 1.0 if key == "attack" else 0.0

    def _sighting_keep(self, key: str, payload) -> float:
        old = WARSHIPS.get(self.obs.patrols.get(self.target_area(), ""), (0, 0))[1]
        new = WARSHIPS.get(self.obs.interference.sighted, (0, 0))[1]
        return (new - old) if key == "keep_new" else 0.0

    def target_area(self) -> str:
        pirate = self.acting()
        return pirate.area if pirate is not None else ""

    # -- the anti-pirate windows -------------------------------------------------------------

    def standing(self, seat: int) -> float:
        """A seat's score so far plus what its pirates afloat are worth."""
        total = float(self.obs.players[seat].vp)
        for pirate in self.obs.pirates:
            if pirate.owner == seat:
                total += pirate.notoriety + self.wealth(pirate) * 0.8
        return total

    def _anti_pirate(self, key: str, payload) -> float:
        if key == "pass":
            return PASS_BAR
        pirate = self.acting()
        if pirate is None or pirate.owner == self.seat:
            return -9.0
        act = payload.act if payload is not None and payload.HasField("act") else key
        mine = self.standing(self.seat)
        theirs = self.standing(pirate.owner)
        leader = max(self.standing(s) for s in range(self.players) if s != self.seat)
        weight = 1.0 + (0.5 if theirs >= leader else 0.0) + (0.5 if theirs > mine else 0.0)
        worth = pirate.notoriety / 2 + self.wealth(pirate)
        action = self.obs.interference.action
        at_sea = not pirate.HasField("port") and pirate.area in COLUMN
        if act == "react":
            return 4.0 + weight * worth * 0.5
        if act == "patrol":
            _, combat = WARSHIPS.get(self.obs.patrols.get(pirate.area, ""), (3, 9))
            beaten = 1 - self.fight_odds(pirate, combat)
            return 1.5 + weight * (beaten * 3 + worth * 0.2)
        if act == "kc_deploy":
            return 1.0 + three_d6_below(pirate.notoriety) * (4.0 + weight * worth * 0.3)
        if act == "kc_move":
            area = payload.area
            near = [
                p
                for p in self.obs.pirates
                if p.owner != self.seat and self.board.steps(area, p.area) <= 1
            ]
            return 0.5 + 0.1 * sum(p.notoriety + self.wealth(p) for p in near) * 0.2
        if act == "kc_port":
            return (
                2.0 * weight
                if pirate.HasField("port")
                and pirate.port == payload.port
                and self.wealth(pirate) > 5
                else -1.0
            )
        if act == "kc_oust":
            return 2.0 + weight * (
                self.wealth(pirate) * 0.5 if action in ("in_port", "retire") else 0.5
            )
        if act == "card":
            return self.ap_card_value(self.card_key(payload.card), pirate, weight, worth, at_sea)
        return 0.0

    def ap_card_value(self, card: str, pirate, weight: float, worth: float, at_sea: bool) -> float:
        cost = HOLD_CARD.get(card, 0.5) * 0.5
        action = self.obs.interference.action
        if card == "warship_sighting":
            beaten = 1 - self.fight_odds(pirate, 9)
            return 1.0 + weight * (beaten * 3 + worth * 0.2) - cost
        if card == "informer":
            return 1.0 + weight * (2.0 + self.booty(pirate) / 300) - cost
        if card == "mutiny_conspiracy":
            loyalty = pirate.ship.loyalty
            breaks = sum(p for s, p in _sums(2).items() if s > loyalty)
            takes = d6_at_least(self.rating(pirate.id, "leadership") + 1)
            return weight * breaks * takes * (pirate.net_worth / 100 + 4.0) - cost
        if card == "storm_at_sea":
            return (1.5 + (2.0 if action == "loot" else 0.0)) * weight - cost
        if card == "merchant_fights_back":
            return (2.0 if action == "loot" else 0.0) * weight - cost
        if card == "debauchery_and_revelry":
            return (
                2.5 if action in ("in_port", "loot", "retire", "attack") else 1.0
            ) * weight - cost
        if card in ("kc_surprise", "pirate_converts"):
            return 2.0 + weight * worth * 0.2 - cost
        if card == "scurvy_outbreak":
            return (0.5 + (2.0 if pirate.ship.loyalty <= 3 else 0.0)) * weight - cost
        if card == "doldrums":
            return (1.0 + (1.0 if self.wants_home(pirate) else 0.0)) * weight - cost
        if card == "wear_and_tear":
            return 0.6 * weight - cost
        return 0.0


def _number(text: str) -> int | None:
    match = re.search(r"(\d+)", text)
    return int(match.group(1)) if match else None


if __name__ == "__main__":
    run(BlackbeardGreedy())
