"""What a game is, declared as data (as OpenSpiel's GameType does): who plays it, what
they cannot see, which windows it opens, what moves by itself and which options it takes.

The referee, the CLI and bot authors read it before a game starts, and the contract tests
check it against the engine's behaviour. Options are checked here, from their specs, and
nowhere else:

>>> spec = OptionSpec("round_cap", int, 200, "a safety stop", bounds=(1, MAX_ROUNDS))
>>> level = OptionSpec("level", str, "normal", "how hard", choices=("easy", "normal", "hard"))
>>> info = GameInfo("demo", "Demo", 2, 4, 2, False, (Window.TURN,), options=(spec, level))
>>> info.resolve({"round_cap": 30, "level": "hard"})
{'round_cap': 30, 'level': 'hard'}
>>> info.resolve({"round_cap": True})
Traceback (most recent call last):
...
ValueError: demo option round_cap takes an integer from 1 to 1000, got true
>>> info.resolve({"level": "expert"})
Traceback (most recent call last):
...
ValueError: demo option level takes one of easy, normal, hard, got "expert"
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from admiralty.games.base import Window

MAX_ROUNDS = 1000
"""The largest `round_cap` any game takes: generous (random play ends within ~60 rounds)
yet a bound, so a game of bots that never win still ends in minutes."""

_TYPE_NAMES = {bool: "bool", int: "int", str: "str"}


@dataclass(frozen=True)
class OptionSpec:
    """One variant option: its JSON type, default, the values it takes and what it does.

    `bounds` are an int's least and greatest value; `choices`, when given, are the only
    values (a str option must have them: a named alternative of the rules); `per_seat` also
    takes a list with one value per seat (handicap play)."""

    name: str
    type: type
    default: Any
    help: str
    bounds: tuple[int, int] | None = None
    choices: tuple[Any, ...] = ()
    per_seat: bool = False

    def __post_init__(self) -> None:
        """A bool, an int kept to a range or to choices, or a str kept to choices: no
        option may make a game endless, a value unboundedly large or a name free text."""
        unbounded = (self.type is int and not (self.bounds or self.choices)) or (
            self.type is str and not self.choices
        )
        misfit = (self.bounds is not None and self.type is not int) or any(
            type(choice) is not self.type for choice in self.choices
        )
        if self.type not in _TYPE_NAMES or unbounded or misfit:
            raise TypeError(
                f"option {self.name}: a bool, or an int with bounds or choices, "
                f"or a str with choices"
            )

    def accepts(self, value: Any, players: int | None) -> bool:
        """Whether `value` is one this option takes (a per-seat list needs `players` seats
        when it is known)."""
        if self.per_seat and isinstance(value, list):
            sized = bool(value) and players in (None, len(value))
            return sized and all(self._fits(item) for item in value)
        return self._fits(value)

    def _fits(self, value: Any) -> bool:
        if type(value) is not self.type:  # exact: a bool is no int, 2.0 is no int
            return False
        if self.bounds is not None:
            low, high, number = *self.bounds, cast(int, value)
            if not low <= number <= high:
                return False
        return not self.choices or value in self.choices

    def takes(self) -> str:
        """The values it takes, in words, for error messages and `admiralty games`."""
        if self.type is bool and not self.choices:
            text = "true or false"
        elif self.choices:  # every str, an int kept to choices, a bool kept to its default
            text = "one of " + ", ".join(
                json.dumps(c) if type(c) is bool else str(c) for c in self.choices
            )
        else:
            low, high = self.bounds or (0, 0)  # an int without choices has bounds
            text = f"an integer from {low} to {high}"
        return text + (", or a list of them, one per seat" if self.per_seat else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": _TYPE_NAMES[self.type],
            "default": self.default,
            "takes": self.takes(),
            "bounds": list(self.bounds) if self.bounds else None,
            "choices": list(self.choices) or None,
            "per_seat": self.per_seat,
            "help": self.help,
        }


@dataclass(frozen=True)
class Actor:
    """A piece the rules move that no seat plays, in the player counts `players`; where the
    rules leave it a choice, a seat is asked (`decided_by`), so it needs no bot."""

    name: str
    players: tuple[int, ...]
    decided_by: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "players": list(self.players), "decided_by": self.decided_by}


@dataclass(frozen=True)
class GameInfo:
    """A game's nature. `windows` are the window kinds its requests use; `hidden_information`
    means seats' views differ; `automated` are its non-player actors; `summary` is a few
    words on what the game is about, for `admiralty games`."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    hidden_information: bool
    windows: tuple[Window, ...]
    automated: tuple[Actor, ...] = ()
    options: tuple[OptionSpec, ...] = ()
    summary: str = ""

    def defaults(self) -> dict[str, Any]:
        return {spec.name: spec.default for spec in self.options}

    def resolve(
        self, options: Mapping[str, Any] | None, players: int | None = None
    ) -> dict[str, Any]:
        """The defaults overlaid with `options`, every one checked against its spec;
        ValueError naming the first option that is unknown or has a value it does not take."""
        specs = {spec.name: spec for spec in self.options}
        unknown = sorted(set(options or {}) - set(specs))
        if unknown:
            known = ", ".join(sorted(specs)) or "none"
            raise ValueError(f"unknown {self.name} option(s) {unknown}; known: {known}")
        for name, value in (options or {}).items():
            if not specs[name].accepts(value, players):
                raise ValueError(
                    f"{self.name} option {name} takes {specs[name].takes()}, got {_shown(value)}"
                )
        return {**self.defaults(), **(options or {})}

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "players": {
                "min": self.min_players,
                "max": self.max_players,
                "default": self.default_players,
            },
            "hidden_information": self.hidden_information,
            "windows": [str(window) for window in self.windows],
            "automated": [actor.to_json() for actor in self.automated],
            "options": [spec.to_json() for spec in self.options],
        }


def round_cap(default: int, help: str) -> OptionSpec:
    """The safety stop every game has: no rule ends a game of bots that never win."""
    return OptionSpec("round_cap", int, default, help, bounds=(1, MAX_ROUNDS))


def _shown(value: Any, limit: int = 40) -> str:
    """`value` as JSON (else its repr), cut short: it may come from a remote caller."""
    try:
        text = json.dumps(value, default=repr)
    except (TypeError, ValueError):  # keys that are not strings, a value that holds itself
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
