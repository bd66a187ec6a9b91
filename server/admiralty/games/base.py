"""The engine contract every game implements.

A game is a pure state machine. It publishes the decisions it is waiting for as
`Request`s, each a list of `Option`s; a seat answers with the index of one option.
Everything a seat may know comes from `GameState.view(seat)` and from the events
that pass `Event.visible_to(seat)`: those two are the only doors out of an engine,
so redaction is decided in one place per game.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

if TYPE_CHECKING:
    from admiralty.games.info import GameInfo

Seat = int
Viewer = int | None
"""A seat number, or None for the public (spectator) view."""


class Window(enum.StrEnum):
    """How a decision window is opened to the seats."""

    TURN = "TURN"
    """The active player acts."""
    INTERRUPT = "INTERRUPT"
    """A player acts out of turn: a reaction it may decline (`optional`, PASS is option 0)
    or an answer it owes, such as a defender's gunpowder (not optional)."""
    SEALED = "SEALED"
    """Several seats choose at once; no choice is revealed until all are in."""
    SETUP = "SETUP"
    """A choice made while the game is being set up."""


class IllegalAction(ValueError):
    """An answer that does not name an open request's option. The state is unchanged."""


@dataclass(frozen=True, slots=True)
class Option:
    """One legal answer: a stable `key` for programs, a `label` for people, a typed payload."""

    key: str
    label: str
    payload: Mapping[str, Any] = field(default_factory=dict)


class Request(NamedTuple):
    """A decision the engine waits for.

    `kind` names the decision (e.g. ``choose_card``) so bots can dispatch on it;
    `optional` means PASS is allowed and is option 0; `default` is the option the
    referee applies when a bot fails to answer; `must_ask` means the referee asks it of
    its seat even with a single option. Engines open requests through their `Flow`.

    An immutable value, like `Event`: a named tuple rather than a frozen dataclass, because
    a decision builds a request and about four events, and a frozen dataclass costs three
    times as much to build (every field set through `object.__setattr__`).
    """

    seat: Seat
    window_id: int
    window: Window
    kind: str
    prompt: str
    options: tuple[Option, ...]
    optional: bool = False
    default: int = 0
    must_ask: bool = False
    """Set for a window opened whatever its seat holds (`Flow.ask`'s `publish` and
    `polled`): whether it has more options than PASS depends on hidden information, so
    answering it without a round trip when it has one would tell the table, by timing,
    what the seat holds."""


class Event(NamedTuple):
    """Something that happened. `audience` is None for public events, else the seats told.

    Engines tell events through their `Flow` (`emit`, `tell`)."""

    kind: str
    data: Mapping[str, Any] = MappingProxyType({})
    audience: frozenset[Seat] | None = None

    def visible_to(self, viewer: Viewer) -> bool:
        """The single event filter: public events reach everyone, private ones their seats."""
        return self.audience is None or (viewer is not None and viewer in self.audience)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "data": dict(self.data)}
        if self.audience is not None:
            out["audience"] = sorted(self.audience)
        return out


def visible_events(events: Iterable[Event], viewer: Viewer) -> list[Event]:
    """The events `viewer` may be told, in order."""
    return [event for event in events if event.visible_to(viewer)]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: per seat, its place (1 = first; tied seats share a place) and score."""

    places: tuple[int, ...]
    scores: tuple[int, ...]

    @staticmethod
    def from_ranking(keys: list[tuple], scores: list[int]) -> Outcome:
        """Places from per-seat sort keys (higher is better); equal keys share a place."""
        places = [1 + sum(1 for other in keys if other > mine) for mine in keys]
        return Outcome(tuple(places), tuple(scores))


class GameState(ABC):
    """One game in progress. Every random draw comes from its `Chance`, named streams of
    its seed (`admiralty.games.chance`), so a state holds no generator of its own."""

    players: int

    @abstractmethod
    def pending(self) -> list[Request]:
        """Every request open now; empty once the game is over."""

    @abstractmethod
    def apply(self, seat: Seat, index: int) -> list[Event]:
        """Answer `seat`'s open request with option `index`; returns the events it caused.

        Raises IllegalAction (and changes nothing) if `seat` has no open request or
        `index` is out of range.
        """

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def view(self, viewer: Viewer) -> dict[str, Any]:
        """Everything `viewer` may see, as plain JSON data (None = public view)."""

    @abstractmethod
    def clone(self) -> GameState:
        """An independent copy, its chance (the seed) included."""

    @abstractmethod
    def determinize(self, seat: Seat, rng: random.Random) -> GameState:
        """A copy that `seat` cannot tell from this one, its hidden parts drawn from `rng`.

        Everything `seat` cannot see (other seats' hidden cards, deck orders, the future
        chance) is dealt again from `rng`, so that ``view(seat)`` is unchanged and the
        result depends only on that view and `rng`: the honest sample of a search, which
        a `clone` (the seed and every hidden card included) is not. Each game's page in
        `docs/games` lists what it deals again.
        """

    @abstractmethod
    def snapshot(self) -> Any:
        """The full hidden state as plain JSON data (the seed included); the basis of
        `digest`."""

    @property
    def setup_events(self) -> list[Event]:
        """The events produced while the game was being set up."""
        return list(getattr(self, "_setup_events", ()))

    def digest(self) -> str:
        """A stable hash of the full state: equal states give equal digests on every run."""
        text = json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def request_for(self, seat: Seat) -> Request:
        """The open request of `seat`, or IllegalAction if it has none."""
        for request in self.pending():
            if request.seat == seat:
                return request
        raise IllegalAction(f"seat {seat} has no open request")


class Game(ABC):
    """A registered game: what it is (`info`) and a factory of new states."""

    info: ClassVar[GameInfo]
    """Its nature as data: players, hidden information, windows, actors, option specs."""

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def min_players(self) -> int:
        return self.info.min_players

    @property
    def max_players(self) -> int:
        return self.info.max_players

    @property
    def default_players(self) -> int:
        return self.info.default_players

    @abstractmethod
    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> GameState:
        """A fresh game for `players` seats, fully determined by `seed` and `options`."""

    def static_info(self) -> dict[str, Any]:
        """The board and other facts that never change during a game, as plain JSON data."""
        return {}

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.name} is played by {self.min_players} to {self.max_players} "
                f"players, not {players}"
            )

    def resolve_options(
        self, options: Mapping[str, Any] | None, players: int | None = None
    ) -> dict[str, Any]:
        """The defaults overlaid with `options`, each checked against its `OptionSpec`
        (per-seat lists against `players` when given); ValueError otherwise."""
        return self.info.resolve(options, players)

    def rules_hash(self) -> str:
        """A hash of the engine's source and data files and of the engine kit it runs on,
        stored in every match record: a record replays only on the code that made it."""
        return _package_hash(type(self).__module__)


@functools.cache
def _package_hash(module: str) -> str:
    """Read once per process: the files do not change while it runs."""
    package = Path(str(__import__(module, fromlist=["_"]).__file__)).parent
    return source_hash(package, Path(__file__).parent)


def source_hash(package: Path, kit: Path) -> str:
    """The hash of a game's `package` (its `.py`, `.json` and `.toml` files, at any depth)
    and of the `kit`'s own modules (`flow.py`, `chance.py`... beside the games, not in
    them): a change to the shared flow or chance streams changes what every game does."""
    digest = hashlib.sha256()
    for path in sorted(kit.glob("*.py")):
        digest.update(b"kit/" + path.name.encode())
        digest.update(path.read_bytes())
    for path in sorted(package.rglob("*")):
        if path.suffix in {".py", ".json", ".toml"}:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
