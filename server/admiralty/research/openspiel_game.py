"""The engines as OpenSpiel Python games: `admiralty_jamaica`, `admiralty_black_fleet` and
`admiralty_blackbeard`, registered with pyspiel when this module is imported.

    import pyspiel
    import admiralty.research.openspiel_game  # registers the games
    game = pyspiel.load_game("admiralty_jamaica", {"players": 3, "seed": 7})

Each is sequential, imperfect-information and zero-sum (`pairwise_rewards`, terminal
rewards only). Chance is SAMPLED_STOCHASTIC: it stays inside the engine, whose draws
are fixed by the deal's seed; a game's `seed` parameter seeds the deals of its initial
states in turn (a state is dealt when first played or cloned, see `_Deal`), so the same
game parameters give the same sequence of games. Actions are
`admiralty.research.actions`' option indices, named by option key.

Parameters: `players`, `seed`, and `round_cap` (the engine's option of that name: fewer
rounds make shorter games).

A seat's observation (string: its view as JSON; tensor: `admiralty.research.encoding`)
is what it sees now. Its information state string adds its whole history: a running
hash of its initial view, every event it was told and every answer it gave, so two
histories it can tell apart have different strings. No information state tensor is
offered: a fixed-size tensor cannot hold that unbounded history.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from admiralty.games import load_game, visible_events
from admiralty.research import encoding, require
from admiralty.research.actions import ACTION_BOUNDS, MAX_DECISIONS, PLAYERS, Table

pyspiel = require("pyspiel")  # before numpy, which open_spiel installs
np = require("numpy")
Game: Any = pyspiel.Game  # classes of a module loaded by `require`: unknown to mypy
State: Any = pyspiel.State

PREFIX = "admiralty_"


def game_type(game: str) -> Any:
    """The pyspiel GameType of `game`, from its own `GameInfo` and the adapters' range."""
    info = load_game(game).info
    return pyspiel.GameType(
        short_name=PREFIX + game,
        long_name=f"{info.title} (admiralty)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if info.hidden_information
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=PLAYERS[game].stop - 1,
        min_num_players=PLAYERS[game].start,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_defaults(game),
    )


def _defaults(game: str) -> dict[str, int]:
    """The game parameters: seats, the seed of the deals, and the game's safety stop."""
    info = load_game(game).info
    return {"players": info.default_players, "seed": 0, "round_cap": info.defaults()["round_cap"]}


class AdmiraltyGame(Game):
    """One registered game (a subclass per engine names it in `GAME`); its `seed`
    parameter seeds the deals of its initial states."""

    GAME = ""

    def __init__(self, params: dict[str, Any] | None = None):
        game = self.GAME
        params = {**_defaults(game), **(params or {})}
        players = int(params["players"])
        if players not in PLAYERS[game]:
            raise ValueError(
                f"{PREFIX}{game} takes {PLAYERS[game].start} to "
                f"{PLAYERS[game].stop - 1} players, not {players}"
            )
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_BOUNDS[game],
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_DECISIONS,
        )
        super().__init__(game_type(game), info, params)
        self.game, self.players = game, players
        self.options = {"round_cap": int(params["round_cap"])}
        self.deals = random.Random(int(params["seed"]))

    def new_initial_state(self) -> AdmiraltyState:
        return AdmiraltyState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.game, recall, params)


class _Deal:
    """A state's table and its seats' history hashes, dealt when the state is first played
    or asked whose turn it is. pyspiel makes initial states it never plays (a clone is a
    new initial state given the original's attributes; a tensor's size is measured on a
    fresh one): dealing them would make the sequence of games depend on such calls."""

    def __init__(
        self, game: AdmiraltyGame, table: Table | None = None, trails: list[str] | None = None
    ):
        self.game, self.table, self.trails = game, table, trails

    def get(self) -> Table:
        if self.table is None:
            self.table, self.trails = self._dealt(self.game.deals.getrandbits(63))
        return self.table

    def seen(self) -> tuple[Table, list[str]]:
        """The table and history hashes to observe: before the state is dealt, those of
        the deal it would get now, left undrawn."""
        if self.table is not None and self.trails is not None:
            return self.table, self.trails
        peek = random.Random()
        peek.setstate(self.game.deals.getstate())
        return self._dealt(peek.getrandbits(63))

    def _dealt(self, seed: int) -> tuple[Table, list[str]]:
        game = self.game
        table = Table(game.game, game.players, seed, game.options)
        state = table.state
        return table, [
            _chain("", [state.view(seat), _told(state.setup_events, seat)])
            for seat in range(game.players)
        ]

    def told(self, seat: int | None, action: int, events: list) -> None:
        """Extend each seat's history by the answer (the mover's own only) and the events
        it was told."""
        assert self.trails is not None
        for viewer, trail in enumerate(self.trails):
            own = action if viewer == seat else None
            self.trails[viewer] = _chain(trail, [own, _told(events, viewer)])

    def __deepcopy__(self, memo: dict) -> _Deal:
        table = self.get().clone()
        return _Deal(self.game, table, list(self.trails or ()))


class AdmiraltyState(State):
    """A game in progress: the engine asks one seat at a time (`Table.request`)."""

    def __init__(self, game: AdmiraltyGame):
        super().__init__(game)
        self.deal = _Deal(game)

    @property
    def table(self) -> Table:
        return self.deal.get()

    def current_player(self) -> int:
        seat = self.table.seat()
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal(player)

    def _apply_action(self, action: int) -> None:
        seat = self.table.seat()
        self.deal.told(seat, action, self.table.apply(action))

    def _action_to_string(self, player: int, action: int) -> str:
        request = self.table.request()
        if request is not None and request.seat == player and action < len(request.options):
            return request.options[action].key
        return f"option {action}"

    def is_terminal(self) -> bool:
        return self.table.over()

    def returns(self) -> list[float]:
        return self.table.rewards()

    def __str__(self) -> str:
        table, _ = self.deal.seen()
        return f"{table.game} for {table.players}, state {table.state.digest()}"


class Observer:
    """pyspiel's Python observer: the encoded view (with the options' rows for the seat
    asked) as `tensor` (and `dict["observation"]`), the view as a JSON string; with
    perfect recall, the string ends with the seat's history hash and there is no tensor."""

    def __init__(self, game: str, perfect_recall: bool, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.game, self.perfect_recall = game, perfect_recall
        self.tensor = np.zeros(0 if perfect_recall else encoding.size(game), np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor}
        self.encoders: dict[int, encoding.Encoder] = {}

    def set_from(self, state: AdmiraltyState, player: int) -> None:
        if not self.perfect_recall:
            table, _ = state.deal.seen()
            request = table.request()
            kind: str | None = None
            options: tuple[Any, ...] = ()
            if request is not None and request.seat == player:
                kind, options = request.kind, request.options
            if player not in self.encoders:
                self.encoders[player] = encoding.Encoder(self.game)
            self.tensor[:] = self.encoders[player].encode(table.view(player), kind, options)

    def string_from(self, state: AdmiraltyState, player: int) -> str:
        table, trails = state.deal.seen()
        text = json.dumps(table.view(player), sort_keys=True)
        if self.perfect_recall:
            text += f"\nhistory {trails[player]}"
        return text


def _told(events: list, seat: int) -> list[dict[str, Any]]:
    return [event.to_json() for event in visible_events(events, seat)]


def _chain(trail: str, step: Any) -> str:
    text = trail + json.dumps(step, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _game_class(game: str) -> type[AdmiraltyGame]:
    """pyspiel's registry holds the class until the process ends: a class, not a closure,
    since a closure freed after the interpreter has shut down aborts the process."""
    return type(f"Admiralty_{game}", (AdmiraltyGame,), {"GAME": game})


def register() -> None:
    """Register every game with pyspiel (once per process)."""
    known = set(pyspiel.registered_names())
    for game in PLAYERS:
        if PREFIX + game not in known:
            pyspiel.register_game(game_type(game), _game_class(game))


register()
