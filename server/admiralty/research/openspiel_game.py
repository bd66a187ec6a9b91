"""The engines as OpenSpiel Python games: `admiralty_jamaica`, `admiralty_black_fleet` and
`admiralty_blackbeard`, registered with pyspiel when this module is imported.

    import pyspiel
    import admiralty.research.openspiel_game  # registers the games
    game = pyspiel.load_game("admiralty_jamaica", {"players": 3, "seed": 7})

Each is sequential, imperfect-information and zero-sum (`pairwise_rewards`, terminal
rewards only). Chance is SAMPLED_STOCHASTIC: it stays inside the engine, whose draws
are fixed by the deal's seed; a game's `seed` parameter seeds the deals of its initial
states in turn (a state is dealt when first used, see `_Deal`), so the same game
parameters give the same sequence of games. Actions are
`admiralty.research.actions`' option indices, named by option key.

Search: a clone keeps the deal's seed, so it knows the future (the dice and cards to
come). `state.clone_for_search(rng)` and `resample_from_infostate` (OpenSpiel's ISMCTS)
draw what the player cannot see and all future chance again, through the engine's
`determinize`. States pickle, and `serialize()` gives pyspiel's form for
`game.deserialize_state`.

Parameters: `players`, `seed`, and `round_cap` (the engine's option of that name: fewer
rounds make shorter games).

A seat's observation (string: its view as JSON; tensor: `admiralty.research.encoding`)
is what it sees now. Its information state string adds its whole history: a running
hash of its initial view, every event it was told and every answer it gave, so two
histories it can tell apart have different strings. No information state tensor is
offered: a fixed-size tensor cannot hold that unbounded history.
"""

from __future__ import annotations

import base64
import hashlib
import json
import pickle
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
        self.observer = Observer(game, perfect_recall=False, params=None)
        """The observer of `AdmiraltyState.observation_tensor`."""

    def new_initial_state(self) -> AdmiraltyState:
        return AdmiraltyState(self)

    def observation_tensor_shape(self) -> list[int]:
        return [encoding.size(self.game)]

    def observation_tensor_size(self) -> int:
        """Known without a state: pyspiel's own measure observes a fresh state it makes,
        which would deal it."""
        return encoding.size(self.game)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.game, recall, params)


Step = int | tuple[int, int]
"""A step of a deal since it was dealt: an answer (the action), or a search's redraw
(the seat it was drawn for, and the seed of its rng)."""


class _Deal:
    """A state's table and its seats' history hashes, dealt when the state is first used:
    played, observed, asked whose turn it is, or cloned. pyspiel makes initial states it
    never uses (a clone is a new initial state given the original's attributes), so
    dealing at creation would make the sequence of games depend on how often it clones;
    once dealt, a state's deal is its own whatever other states do.

    It pickles as its recipe, the deal's seed and every step since, replayed on loading:
    the engines' states are not pickled, since their rules tell options apart by
    identity, which a pickled copy loses."""

    def __init__(self, game: AdmiraltyGame | None):
        self.game = game
        self.table: Table | None = None
        self.trails: list[str] = []
        self.steps: list[Step] = []

    def get(self) -> Table:
        if self.table is None:
            assert self.game is not None
            game = self.game
            self._deal(game.game, game.players, game.deals.getrandbits(63), game.options)
        assert self.table is not None
        return self.table

    def _deal(self, game: str, players: int, seed: int, options: dict[str, Any]) -> None:
        """The table of `seed`; each seat's history begins with its view and setup events."""
        self.table = table = Table(game, players, seed, options)
        self.trails = [
            _chain("", [table.state.view(seat), _told(table.state.setup_events, seat)])
            for seat in range(players)
        ]

    def apply(self, action: int) -> None:
        """Answer with `action`, extending each seat's history by the answer (the mover's
        own only) and the events it was told."""
        table = self.get()
        seat = table.seat()
        events = table.apply(action)
        for viewer, trail in enumerate(self.trails):
            own = action if viewer == seat else None
            self.trails[viewer] = _chain(trail, [own, _told(events, viewer)])
        self.steps.append(action)

    def redraw(self, seat: int, seed: int) -> None:
        """Become the deal as `seat` may imagine it (`Table.determinize`, from the rng of
        `seed`): its own history kept, every other seat's begun again from it, since the
        real ones record what `seat` has not seen."""
        self.table = self.get().determinize(seat, random.Random(seed))
        own = self.trails[seat]
        self.trails = [
            own if other == seat else _chain(own, ["redrawn", other])
            for other in range(len(self.trails))
        ]
        self.steps.append((seat, seed))

    def __deepcopy__(self, memo: dict) -> _Deal:
        copy = _Deal(self.game)
        copy.table, copy.trails, copy.steps = self.get().clone(), self.trails[:], self.steps[:]
        return copy

    def __getstate__(self) -> dict[str, Any]:
        table = self.get()
        deal = (table.game, table.players, table.seed, dict(table.options or {}))
        return {"deal": deal, "steps": self.steps}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.game, self.steps = None, []
        self._deal(*saved["deal"])
        for step in saved["steps"]:
            if isinstance(step, int):
                self.apply(step)
            else:
                self.redraw(*step)


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
        self.deal.apply(action)

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
        table = self.table
        return f"{table.game} for {table.players}, state {table.state.digest()}"

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """Encoded here rather than through pyspiel, which first measures the tensor on a
        fresh state it makes and observes (dealing it) at every call."""
        observer = self.get_game().observer
        observer.set_from(self, self.current_player() if player is None else player)
        return observer.tensor.tolist()

    def clone_for_search(self, rng: random.Random) -> AdmiraltyState:
        """A clone for search, as the player to move may imagine the game: what it cannot
        see, and all future chance, drawn again from `rng` (the engine's `determinize`).
        A plain `clone()` keeps the deal's seed, so a search over it plays out the real
        future."""
        return self._redrawn(self.current_player(), rng.getrandbits(63))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """OpenSpiel's resampling, for its ISMCTS: a state `player_id` cannot tell from
        this one, drawn as `clone_for_search` does with an rng seeded by one draw of
        `probability_sampler`."""
        return self._redrawn(player_id, int(probability_sampler() * 2**53))

    def _redrawn(self, player: int, seed: int) -> AdmiraltyState:
        state = self.clone()
        if player >= 0:  # a terminal state has nothing left to draw
            state.deal.redraw(player, seed)
        return state

    def serialize(self) -> str:
        """pyspiel's form of a Python state (history, move number, pickled attributes),
        which `game.deserialize_state` reads. pyspiel's own `serialize` first asks the game
        for the state of an RNG, which a Python game with sampled chance cannot give."""
        history = ",".join(f"{step.player}:{step.action}" for step in self.full_history())
        attributes = base64.b64encode(pickle.dumps(self.__dict__)).decode()
        return f"history={history}\nmove_number={self.move_number()}\n__dict__={attributes}"

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return _deserialized, (str(self.get_game()), self.serialize())


def _deserialized(game: str, text: str) -> AdmiraltyState:
    """The state `serialize` wrote, in a game loaded again from its string."""
    return pyspiel.load_game(game).deserialize_state(text)


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
            table = state.table
            request = table.request()
            kind: str | None = None
            options: tuple[Any, ...] = ()
            if request is not None and request.seat == player:
                kind, options = request.kind, request.options
            if player not in self.encoders:
                self.encoders[player] = encoding.Encoder(self.game)
            self.tensor[:] = self.encoders[player].encode(table.view(player), kind, options)

    def string_from(self, state: AdmiraltyState, player: int) -> str:
        text = json.dumps(state.table.view(player), sort_keys=True)
        if self.perfect_recall:
            text += f"\nhistory {state.deal.trails[player]}"
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
