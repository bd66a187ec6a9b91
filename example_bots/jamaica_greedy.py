"""A greedy Jamaica bot: race round the island, pay every landing, win the fights that pay.

    python example_bots/jamaica_greedy.py --port 50062

Every decision simulates this seat's own ship one card ahead on the static track (sent
once per match in `match_info.jamaica`) and picks the option whose outcome is worth the
most: progress towards Port Royal first, then the gold, food and gunpowder needed to pay
the next landings, with shortages (which cost everything and push the ship back) simulated
like the engine does. Fights are judged by their odds on the combat die. There is no
randomness: the same request always gets the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from admiralty_sdk import Bot, observation, payload, run

GHOST = -1
PRE_START, RACING, FINISHED = "pre_start", "racing", "finished"
STAR = "star"

STEP = 2.0
"""Worth of one step of progress; the race decides most games, so it outweighs a doubloon."""
FINISH_AHEAD = 60.0
"""Bonus for ending the game while ahead on score: that is the win."""
FINISH_BEHIND = -30.0
"""Ending the game while behind locks in the loss, so avoid it if anything else is left."""
GOLD_TARGET, FOOD_TARGET, POWDER_TARGET = 7, 6, 3
"""Stocks worth keeping: the dearest port costs 7, a few sea landings take 6 food."""
LAIR_TREASURE = 2.0
"""Expected points of an unknown treasure card (+7, +7, +5, +3, +3, -2, -3, -4, powers)."""
UNPAYABLE = 1.2
"""Penalty per reachable next landing (1..6 steps ahead) the ship could not pay for."""
LOOKAHEAD = 6
BOARD_HOLDS = 5
"""Holds 0-4 are the hold board; a 6th, if any, is the 6th Hold card."""


# ------------------------------------------------------------------------ the track


@dataclass
class Track:
    """The static board of one match: spaces both ways, distances, cards, the combat die."""

    kind: dict[int, str]
    cost: dict[int, int]
    pays: dict[int, str | None]
    score: dict[int, int]
    succ: dict[int, dict[int, tuple[int, ...]]]
    to_finish: dict[int, int]
    port_royal: int
    lap_length: int
    pre_start_score: int
    cards: dict[int, tuple[str, str]]
    faces: tuple

    @classmethod
    def from_pb(cls, board) -> Track:
        """Build the tables from a `JamaicaTrack` message."""
        forward = {s.id: tuple(s.next) for s in board.spaces}
        backward: dict[int, list[int]] = {s: [] for s in forward}
        for space, nexts in forward.items():
            for n in nexts:
                backward[n].append(space)
        faces = tuple(
            STAR if v.HasField("string_value") else int(v.number_value) for v in board.combat_die
        ) or (2, 4, 6, 8, 10, STAR)
        return cls(
            kind={s.id: s.kind for s in board.spaces},
            cost={s.id: s.cost for s in board.spaces},
            pays={s.id: (s.pays if s.HasField("pays") else None) for s in board.spaces},
            score={s.id: s.score for s in board.spaces},
            succ={1: forward, -1: {s: tuple(sorted(b)) for s, b in backward.items()}},
            to_finish=_distances(board.port_royal, backward),
            port_royal=board.port_royal,
            lap_length=board.lap_length,
            pre_start_score=board.pre_start_score,
            cards={c.id: (c.morning, c.evening) for c in board.cards},
            faces=faces,
        )

    def step_lap(self, space: int, lap: str, to: int, direction: int) -> str:
        """The lap state after one step, as the engine counts it (start line = Port Royal)."""
        if to == self.port_royal:
            if direction > 0:
                return FINISHED if lap == RACING else lap
            return PRE_START
        if space == self.port_royal:
            return RACING if direction > 0 or lap == FINISHED else PRE_START
        return lap

    def steps_left(self, space: int, lap: str) -> int:
        """Steps still to sail; a ship behind the start line has the whole lap ahead too."""
        if lap == FINISHED:
            return 0
        extra = self.lap_length if lap == PRE_START else 0
        return self.to_finish[space] + extra

    def walk(self, space: int, lap: str, direction: int, steps: int) -> list[tuple]:
        """Every (space, lap, branches) a move can end on: one per route through the forks."""
        ends: list[tuple] = []
        self._walk(space, lap, direction, steps, (), ends)
        return ends

    def _walk(self, space, lap, direction, steps, branches, ends) -> None:
        while steps and lap != FINISHED:
            nexts = self.succ[direction][space]
            if len(nexts) > 1:
                for to in nexts:
                    self._walk(
                        to,
                        self.step_lap(space, lap, to, direction),
                        direction,
                        steps - 1,
                        (*branches, (space, direction, to)),
                        ends,
                    )
                return
            lap, space, steps = self.step_lap(space, lap, nexts[0], direction), nexts[0], steps - 1
        ends.append((space, lap, branches))

    def position_score(self, space: int, lap: str) -> int:
        return self.pre_start_score if lap == PRE_START else self.score[space]


def _distances(target: int, backward: dict[int, list[int]]) -> dict[int, int]:
    """Fewest forward steps from every space to `target` (breadth-first, walking back)."""
    distance, frontier = {target: 0}, [target]
    while frontier:
        nxt = []
        for space in frontier:
            for previous in backward[space]:
                if previous not in distance:
                    distance[previous] = distance[space] + 1
                    nxt.append(previous)
        frontier = nxt
    return distance


# ---------------------------------------------------------------- a simulated ship


@dataclass
class Sim:
    """This seat's ship as a card would leave it: position, holds and expected extras."""

    space: int
    lap: str
    holds: list[list]  # [kind or None, count], in the observation's hold order
    extra: float = 0.0  # expected points from lair treasures and fights
    lairs: set[int] = field(default_factory=set)  # lairs still holding a treasure
    branches: tuple = ()  # (space, direction, to) fork choices taken

    def copy(self) -> Sim:
        return Sim(
            self.space,
            self.lap,
            [h[:] for h in self.holds],
            self.extra,
            set(self.lairs),
            self.branches,
        )

    def total(self, kind: str) -> int:
        return sum(count for held, count in self.holds if held == kind)

    def take(self, kind: str, amount: int) -> None:
        """Pay `amount` of `kind`, emptying the smallest holds first (frees holds soonest)."""
        for hold in sorted((h for h in self.holds if h[0] == kind), key=lambda h: h[1]):
            taken = min(hold[1], amount)
            hold[1] -= taken
            amount -= taken
            if not hold[1]:
                hold[0] = None


@dataclass
class Game:
    """What one decision knows: the track, the observation and who is where."""

    track: Track
    obs: object
    seat: int

    @property
    def me(self):
        return self.obs.players[self.seat]

    def rivals(self) -> list:
        return [p for p in self.obs.players if p.seat != self.seat]

    def foes_at(self, space: int) -> list[int]:
        """The other ships (seats, or GHOST) a ship arriving on `space` would fight."""
        if space == self.track.port_royal:
            return []
        foes = [p.seat for p in self.rivals() if p.space == space and p.lap != FINISHED]
        if self.obs.HasField("ghost") and self.obs.ghost.space == space:
            foes.append(GHOST)
        return foes

    def sim(self) -> Sim:
        me = self.me
        holds = [[h.kind if h.count else None, h.count] for h in me.holds]
        return Sim(me.space, me.lap, holds, lairs=set(self.obs.lairs_with_treasure))


def powder_of(game: Game, ship: int) -> int:
    """A ship's gunpowder (the Ghost never keeps any)."""
    if ship == GHOST:
        return 0
    return sum(h.count for h in game.obs.players[ship].holds if h.kind == "gunpowder")


def bonus_of(game: Game, ship: int) -> int:
    """The combat bonus: the Ghost Ship always has Lady Beth's +2."""
    if ship == GHOST:
        return 2
    return 2 if "lady_beth" in game.obs.players[ship].powers else 0


def gold_holds(game: Game, ship: int) -> list[int]:
    """The gold hold sizes of a ship: what a winner could take from it in one go."""
    holds = game.obs.ghost.holds if ship == GHOST else game.obs.players[ship].holds
    return [h.count for h in holds if h.kind == "gold"]


# ------------------------------------------------------------------------ combat odds


def win_odds(faces, attack: int, defence_bonus: int) -> tuple[float, float]:
    """(win, loss) chances of a defender rolling against a known attack strength."""
    win = loss = 0.0
    for face in faces:
        if face == STAR or face + defence_bonus > attack:
            win += 1
        elif face + defence_bonus < attack:
            loss += 1
    return win / len(faces), loss / len(faces)


def attack_odds(faces, attack_bonus: int, defence_bonus: int) -> tuple[float, float]:
    """(win, loss) chances of an attacker with `attack_bonus` against `defence_bonus`."""
    win = loss = 0.0
    for face in faces:
        if face == STAR:
            win += 1
            continue
        w, lo = win_odds(faces, face + attack_bonus, defence_bonus)
        win, loss = win + lo, loss + w
    return win / len(faces), loss / len(faces)


def stake(game: Game, foe: int) -> tuple[float, float]:
    """What a fight against `foe` wins (its best gold hold, more from a rival) and risks."""
    best = max(gold_holds(game, foe), default=0)
    gain = 2.0 * max(best, 2) if foe != GHOST else float(max(best, 1))
    mine = gold_holds(game, game.seat)
    risk = 0.5 * sum(mine) + 1.0 + (0.5 * max(mine) if mine else 0.0)
    return gain, risk


def fight_value(game: Game, foe: int, powder: int) -> float:
    """Expected worth of attacking `foe` with `powder` gunpowder (a rival spends half his)."""
    defence = bonus_of(game, foe) + powder_of(game, foe) // 2
    win, loss = attack_odds(game.track.faces, powder + bonus_of(game, game.seat), defence)
    gain, risk = stake(game, foe)
    return win * gain - loss * risk


# ------------------------------------------------------------------ simulating cards


def load(sim: Sim, kind: str, count: int, allow_dump: bool, exclude: int = -1) -> list[Sim]:
    """Every way a load can go [jamaica §6.1]; no room at all cancels it."""
    outcomes = []
    for hold in load_targets(sim, kind, allow_dump, exclude):
        new = sim.copy()
        new.holds[hold] = [kind, count]
        outcomes.append(new)
    return outcomes or [sim]


def load_targets(sim: Sim, kind: str, allow_dump: bool, exclude: int) -> list[int]:
    """The first empty board hold (or an empty 6th Hold); with none, a hold to dump that
    holds another kind (any kind if the match allows it), never `exclude`."""
    empty = [i for i, (_, count) in enumerate(sim.holds) if not count]
    if empty:
        return [empty[0], *(i for i in empty[1:] if i >= BOARD_HOLDS)]
    return [
        i for i, (held, _) in enumerate(sim.holds) if i != exclude and (held != kind or allow_dump)
    ]


def arrive(game: Game, sim: Sim) -> list[Sim]:
    """A move ends: fight whoever is there (all gunpowder in), then pay the space (6.2.6)."""
    if sim.space == game.track.port_royal:
        return [sim]
    foes = game.foes_at(sim.space)
    if foes:
        sim.extra += max(fight_value(game, foe, sim.total("gunpowder")) for foe in foes)
        sim.take("gunpowder", sim.total("gunpowder"))
    return settle(game, sim)


def settle(game: Game, sim: Sim) -> list[Sim]:
    """Pay the landing: a lair's treasure, a port's gold or the sea's food, or a shortage."""
    track, space = game.track, sim.space
    if track.kind[space] == "lair":
        if space in sim.lairs:
            sim.lairs.discard(space)
            sim.extra += LAIR_TREASURE
        return [sim]
    kind, cost = track.pays[space], track.cost[space]
    if kind is None or not cost:
        return [sim]
    if sim.total(kind) >= cost:
        sim.take(kind, cost)
        return [sim]
    sim.take(kind, sim.total(kind))
    return retreat(game, sim)


def retreat(game: Game, sim: Sim) -> list[Sim]:
    """Shortage (6.4): back, one step at a time, to the first space that can be paid."""
    track = game.track
    while True:
        nexts = track.succ[-1][sim.space]
        if len(nexts) > 1:
            outcomes = []
            for to in nexts:
                new = sim.copy()
                new.branches = (*new.branches, (sim.space, -1, to))
                outcomes += _retreat_to(game, new, to)
            return outcomes
        if _step_back_and_stop(game, sim, nexts[0]):
            return arrive(game, sim)


def _retreat_to(game: Game, sim: Sim, to: int) -> list[Sim]:
    """Retreat through the branch `to` of a fork, and on if it can't be paid either."""
    if _step_back_and_stop(game, sim, to):
        return arrive(game, sim)
    return retreat(game, sim)


def _step_back_and_stop(game: Game, sim: Sim, to: int) -> bool:
    """One retreat step; True once the ship can pay where it is (a lair always can)."""
    track = game.track
    sim.lap = track.step_lap(sim.space, sim.lap, to, -1)
    sim.space = to
    kind = track.pays[to]
    return kind is None or sim.total(kind) >= track.cost[to]


def move(game: Game, sim: Sim, direction: int, steps: int) -> list[Sim]:
    """Every outcome of a move, one per route through the forks."""
    outcomes = []
    for space, lap, branches in game.track.walk(sim.space, sim.lap, direction, steps):
        new = sim.copy()
        new.space, new.lap, new.branches = space, lap, (*sim.branches, *branches)
        outcomes += arrive(game, new)
    return outcomes


def act(game: Game, sim: Sim, symbol: str, value: int, exclude: int = -1) -> list[Sim]:
    """One half of a card; a ship that has finished ignores the rest [jamaica §6.2.5]."""
    if sim.lap == FINISHED:
        return [sim]
    if symbol in ("forward", "backward"):
        return move(game, sim, 1 if symbol == "forward" else -1, value)
    available = getattr(game.obs.bank, symbol)
    count = min(value, available)
    if not count:
        return [sim]
    return load(sim, symbol, count, game.obs.options.allow_dump_same_kind, exclude)


def play_card(game: Game, card: int, morning: int, evening: int) -> list[Sim]:
    """Every outcome of playing `card` with the dice placed so."""
    first, second = game.track.cards[card]
    outcomes = []
    for sim in act(game, game.sim(), first, morning):
        exclude = _filled(game.sim(), sim) if first == second else -1
        outcomes += act(game, sim, second, evening, exclude)
    return outcomes


def _filled(before: Sim, after: Sim) -> int:
    """The hold a morning load filled (the gold-gold card may not reuse it)."""
    for i, (old, new) in enumerate(zip(before.holds, after.holds, strict=False)):
        if old != new:
            return i
    return -1


# ---------------------------------------------------------------------- judging a ship


def stock_value(sim: Sim) -> float:
    """Tokens: gold scores and pays ports, food pays the sea, some gunpowder wins fights."""
    gold, food, powder = sim.total("gold"), sim.total("food"), sim.total("gunpowder")
    empty = sum(1 for _, count in sim.holds if not count)
    return (
        gold
        + 0.6 * min(gold, GOLD_TARGET)
        + 1.0 * min(food, FOOD_TARGET)
        + 0.15 * min(max(food - FOOD_TARGET, 0), 6)
        + 0.5 * min(powder, POWDER_TARGET)
        + 0.05 * max(powder - POWDER_TARGET, 0)
        + 0.3 * empty
    )


def unpayable_ahead(game: Game, sim: Sim) -> int:
    """How many of the next landings (1..6 steps, best route) the ship could not pay."""
    track, bad = game.track, 0
    for steps in range(1, LOOKAHEAD + 1):
        ends = track.walk(sim.space, sim.lap, 1, steps)
        if not any(_payable(track, sim, space, lap) for space, lap, _ in ends):
            bad += 1
    return bad


def _payable(track: Track, sim: Sim, space: int, lap: str) -> bool:
    kind = track.pays[space]
    return lap == FINISHED or kind is None or sim.total(kind) >= track.cost[space]


def worth(game: Game, sim: Sim) -> float:
    """How good a ship is: progress, then stocks and extras, minus unpayable landings."""
    track = game.track
    value = -STEP * track.steps_left(sim.space, sim.lap) + stock_value(sim) + sim.extra
    if sim.lap == FINISHED:
        return value + (FINISH_AHEAD if ahead_at_finish(game, sim) else FINISH_BEHIND)
    value -= UNPAYABLE * unpayable_ahead(game, sim)
    if sim.lap != PRE_START:
        value += 0.3 * track.position_score(sim.space, sim.lap)
    return value


def ahead_at_finish(game: Game, sim: Sim) -> bool:
    """Would this ship lead if the game ended on it (rivals' hidden cards counted at +2)?"""
    track = game.track
    mine = (
        track.position_score(sim.space, sim.lap)
        + sim.total("gold")
        + sum(game.me.treasures)
        + sim.extra
    )
    for rival in game.rivals():
        theirs = rival.score + 2 * rival.face_down_treasures
        if theirs >= mine:
            return False
    return True


def best_play(game: Game, card: int, morning: int, evening: int) -> tuple[float, Sim]:
    """The best outcome of a card (we choose the routes and the holds)."""
    outcomes = play_card(game, card, morning, evening)
    return max(((worth(game, sim), sim) for sim in outcomes), key=lambda pair: pair[0])


# --------------------------------------------------------------------------- the bot


class JamaicaGreedy(Bot):
    name = "jamaica-greedy"
    version = "1.0"
    games = ("jamaica",)

    def __init__(self) -> None:
        self._tracks: dict[str, Track] = {}
        self._plans: dict[tuple[str, int], dict] = {}

    def on_match_start(self, request) -> None:
        self._tracks[request.match_id] = Track.from_pb(request.match_info.jamaica)

    def on_match_over(self, message) -> None:
        match_id = message.result.match_id
        self._tracks.pop(match_id, None)
        self._plans.pop((match_id, message.seat), None)

    def decide(self, request) -> int:
        track = self._tracks.get(request.match_id)
        handler = getattr(self, f"_{request.kind}", None)
        if track is None or handler is None:
            return 0  # without the board there is nothing to judge by: take the default
        self._follow(request)
        game = Game(track, observation(request), request.seat)
        return handler(game, request)

    def _follow(self, request) -> None:
        """Note from the events which Ghost move (morning or evening) was sailed last."""
        plan = self._plan(request)
        for event in request.events:
            if event.kind == "round_started":
                plan["ghost_half"] = None
            elif event.kind == "ghost_sails":
                plan["ghost_half"] = event.data["half"]

    def _plan(self, request) -> dict:
        return self._plans.setdefault((request.match_id, request.seat), {})

    # -- the round

    def _place_dice(self, game: Game, request) -> int:
        """As Captain, order the dice for the best card in hand."""
        hand = list(game.me.hand)

        def best(option) -> float:
            dice = payload(option)
            return max(best_play(game, c, dice.morning, dice.evening)[0] for c in hand)

        return max(request.options, key=best).index

    def _choose_card(self, game: Game, request) -> int:
        """Play the card whose best outcome is worth most; remember its routes at forks."""
        dice = game.obs.dice
        scored = [
            (best_play(game, payload(o).card, dice.morning, dice.evening), o)
            for o in request.options
        ]
        (_, sim), option = max(scored, key=lambda item: item[0][0])
        self._plan(request)["forks"] = {(s, d): to for s, d, to in sim.branches}
        return option.index

    def _fork(self, game: Game, request) -> int:
        """Take the route planned with the card; else the lane that fares best on average."""
        space = game.obs.ghost.space if game.obs.phase == "ghost" else game.me.space
        options = {payload(o).space: o.index for o in request.options}
        direction = 1 if set(options) <= set(game.track.succ[1][space]) else -1
        if game.obs.phase == "ghost":
            planned = self._plan(request).get("ghost", {}).get((space, direction))
            if planned in options:
                return options[planned]
            return max(
                options.items(), key=lambda item: ghost_lane_value(game, item[0], direction)
            )[1]
        planned = self._plan(request).get("forks", {}).get((space, direction))
        if planned in options:
            return options[planned]
        return max(options.items(), key=lambda item: lane_value(game, item[0], direction))[1]

    def _load(self, game: Game, request) -> int:
        """Load into the hold that keeps the most valuable stock."""
        return self._stow_choice(game, request, _loading(request))

    def _stash(self, game: Game, request) -> int:
        """Stolen goods: same choice as a load (the Ghost's holds don't matter to us)."""
        if game.obs.combat.winner == GHOST:
            return 0
        return self._stow_choice(game, request, _loading(request))

    def _stow_choice(self, game: Game, request, cargo: tuple[str, int] | None) -> int:
        """The hold (empty, or one to dump) after which our stock is worth most."""
        if cargo is None:
            return 0
        kind, count = cargo

        def value(option) -> float:
            sim = game.sim()
            sim.holds[payload(option).hold] = [kind, count]
            return stock_value(sim)

        return max(request.options, key=value).index

    def _pay(self, game: Game, request) -> int:
        """Pay so that as many holds as possible end up empty (room for the next loads)."""
        holds = game.me.holds

        def emptied(option) -> int:
            p = payload(option)
            return sum(1 for h, a in zip(p.holds, p.amounts, strict=True) if holds[h].count == a)

        return max(request.options, key=emptied).index

    # -- fights

    def _target(self, game: Game, request) -> int:
        """Attack the rival rather than anyone else; else the foe with the best odds."""
        targets = {payload(o).target: o.index for o in request.options}
        if game.obs.phase == "ghost":  # the Ghost attacks for us: never our own ship
            rivals = [t for t in targets if t != game.seat]
            return targets[rivals[0]] if rivals else 0
        powder = game.sim().total("gunpowder")
        return max(targets.items(), key=lambda item: fight_value(game, item[0], powder))[1]

    def _gunpowder(self, game: Game, request) -> int:
        """Spend what makes the fight's expected worth highest, counting the powder spent."""
        combat = game.obs.combat
        attacking = combat.attacker == game.seat
        foe = combat.defender if attacking else combat.attacker
        gain, risk = stake(game, foe)
        track = game.track

        def value(option) -> float:
            spend = payload(option).amount
            mine = spend + bonus_of(game, game.seat)
            if attacking:
                defence = bonus_of(game, foe) + powder_of(game, foe) // 2
                win, loss = attack_odds(track.faces, mine, defence)
            else:
                strength = combat.strengths[0]
                if strength.HasField("null_value"):
                    return 0.0
                win, loss = win_odds(track.faces, int(strength.number_value), mine)
            return win * gain - loss * risk - 0.6 * spend

        return max(request.options, key=value).index

    def _sabre(self, game: Game, request) -> int:
        """Reroll our own weak roll, or the rival's star or strong roll."""
        rerolls = [o for o in request.options if o.key.startswith("sabre:")]
        if not rerolls:
            return 0
        option = rerolls[0]
        whose = payload(option).reroll
        combat = game.obs.combat
        role = 0 if combat.stage.startswith("attacker") else 1
        face = combat.rolls[role]
        star = face.HasField("string_value")
        value = None if star else int(face.number_value)
        if whose == "own":
            return option.index if not star and value <= 4 else 0
        return option.index if star or value >= 8 else 0

    def _loot(self, game: Game, request) -> int:
        """Take what swings the score most: gold, a cursed card given away, a treasure."""
        combat = game.obs.combat
        for_ghost = combat.winner == GHOST
        return max(request.options, key=lambda o: loot_value(game, payload(o), for_ghost)).index

    def _ghost_direction(self, game: Game, request) -> int:
        """Sail the Ghost onto the rival, away from our ship."""
        dice = game.obs.dice
        done = self._plan(request).get("ghost_half")
        steps = dice.evening if done == "morning" else dice.morning
        ghost = game.obs.ghost
        best_value, best_index, best_plan = None, 0, {}
        for option in request.options:
            direction = 1 if payload(option).direction == "forward" else -1
            for space, _, branches in game.track.walk(ghost.space, ghost.lap, direction, steps):
                value = ghost_landing_value(game, space)
                if best_value is None or value > best_value:
                    best_value, best_index = value, option.index
                    best_plan = {(s, d): to for s, d, to in branches}
        self._plan(request)["ghost"] = best_plan
        return best_index


def _loading(request) -> tuple[str, int] | None:
    """The kind and count being loaded (or stashed), from the options' payloads."""
    first = request.options[0].jamaica if request.options else None
    if first is None or not first.HasField("load_kind"):
        return None
    return first.load_kind, first.load_count


def lane_value(game: Game, to: int, direction: int) -> float:
    """A lane for our ship (no plan for this fork, e.g. a retreat), averaged over the
    steps that may be left once in it (0..5)."""
    total = 0.0
    for steps in range(6):
        sim = game.sim()
        sim.lap = game.track.step_lap(sim.space, sim.lap, to, direction)
        sim.space = to
        outcomes = move(game, sim, direction, steps) if steps else arrive(game, sim)
        total += max(worth(game, s) for s in outcomes)
    return total


def ghost_lane_value(game: Game, to: int, direction: int) -> float:
    """A lane for the Ghost (its direction was forced, so nothing was planned), averaged
    over the steps that may be left once in it (0..5)."""
    total = 0.0
    lap = game.track.step_lap(game.obs.ghost.space, game.obs.ghost.lap, to, direction)
    for steps in range(6):
        ends = game.track.walk(to, lap, direction, steps)
        total += max(ghost_landing_value(game, space) for space, _, _ in ends)
    return total


def ghost_landing_value(game: Game, space: int) -> float:
    """The Ghost on `space`: good on the rival (we run its fight), bad on us, bad just ahead."""
    track = game.track
    if space == track.port_royal:
        return 0.0
    me = game.me
    value = 0.0
    rivals = [p for p in game.rivals() if p.space == space and p.lap != FINISHED]
    if rivals:
        value += 3.0
    elif me.space == space and me.lap != FINISHED:
        value -= 5.0
    ahead = {s for steps in range(1, 7) for s, _, _ in track.walk(me.space, me.lap, 1, steps)}
    if space in ahead:
        value -= 1.0
    return value


def loot_value(game: Game, loot, for_ghost: bool) -> float:
    """Points a spoil swings between us and the loser (the Ghost keeps only gold)."""
    kind = loot.loot
    if kind == "hold":
        if loot.kind == "gold":
            return loot.count * (1.0 if for_ghost else 2.0)
        if for_ghost:
            return 0.3 * loot.count
        sim = game.sim()
        before = stock_value(sim)
        outcomes = load(sim, loot.kind, loot.count, game.obs.options.allow_dump_same_kind)
        return max(stock_value(s) for s in outcomes) - before + 0.3 * loot.count
    if kind == "treasure":
        return {"morgans_map": 3.0, "sixth_hold": 2.5, "sarans_sabre": 2.0, "lady_beth": 3.0}.get(
            loot.treasure, 1.0
        )
    if kind == "blind":
        return 2.0 if for_ghost else 4.0
    if kind == "give":
        return -2.0 * loot.value if loot.value < 0 else -loot.value - 1.0
    return 0.0


if __name__ == "__main__":
    run(JamaicaGreedy())
