"""The interactive replay: keys move a screen through a recorded match's frames.

Three layers, so the first two are tested without a terminal: `Keys` turns keystrokes into
`Command`s, `Player` applies them to a timeline (which frame is shown, playing or paused,
the legend) and `run` is the terminal: cbreak mode without echo, restored on exit and on
Ctrl-C (`terminal.quiet_keys`), whole frames drawn on the alternate screen.
"""

from __future__ import annotations

import os
import select
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from rich.console import Console
from rich.live import Live
from rich.text import Text

from admiralty.console.feeds import end, screen_for
from admiralty.console.screen import MatchScreen
from admiralty.console.terminal import quiet_keys
from admiralty.referee.timeline import Timeline

KEYS_HELP = (
    "space play/pause · →/n next · ←/p back · g N⏎ round · s N⏎ step · "
    "d next decision · i next incident · l legend · q quit"
)

ARROWS = {"\x1b[C": "next", "\x1bOC": "next", "\x1b[D": "back", "\x1bOD": "back"}
LETTERS = {
    " ": "pause",
    "n": "next",
    "p": "back",
    "d": "decision",
    "i": "incident",
    "l": "legend",
    "q": "quit",
    "Q": "quit",
    "\x04": "quit",
}
"""Single keys and their commands; Ctrl-D quits like q."""
NUMBERED = {"g": "round", "s": "step"}
"""Keys that take a number, typed after them and ended by Enter."""


@dataclass(frozen=True)
class Command:
    name: str
    number: int | None = None


class Keys:
    """Keystrokes in, commands out; `typing` is what a numbered command has so far."""

    def __init__(self) -> None:
        self.numbered: str | None = None
        self.typing = ""
        self._escape = ""

    def feed(self, key: str) -> Command | None:
        if self._escape or key == "\x1b":
            return self._arrow(key)
        if self.numbered is not None:
            return self._number(key)
        if key in NUMBERED:
            self.numbered, self.typing = NUMBERED[key], ""
            return None
        name = LETTERS.get(key)
        return Command(name) if name else None

    def _arrow(self, key: str) -> Command | None:
        self._escape += key
        if self._escape in ARROWS:
            name, self._escape = ARROWS[self._escape], ""
            return Command(name)
        if len(self._escape) >= 3 or (len(self._escape) == 2 and key not in "[O"):
            self._escape = ""
        return None

    def _number(self, key: str) -> Command | None:
        if key.isdigit():
            self.typing += key
            return None
        name, typed = self.numbered, self.typing
        self.numbered, self.typing = None, ""
        if key in "\r\n" and typed and name is not None:
            return Command(name, int(typed))
        return None  # anything else cancels the number


class Player:
    """Which frame of a timeline is shown, whether it plays, and the screen of it."""

    def __init__(self, timeline: Timeline, legend: bool = False):
        self.timeline = timeline
        self.legend = legend
        self.position = 0
        self.playing = False
        self.message = ""
        self.screen = self._screen_at(0)
        self._rounds = [
            int(frame.view.get(self.screen.renderer.ROUND_KEY) or 0) for frame in timeline.frames
        ]

    @property
    def last(self) -> int:
        return len(self.timeline.frames) - 1

    def apply(self, command: Command) -> bool:
        """Carry out `command`; False once it says quit."""
        self.message = ""
        if command.name == "quit":
            return False
        if command.name == "pause":
            self.playing = not self.playing and self.position < self.last
        elif command.name == "legend":
            self.legend = self.screen.legend = not self.legend
        else:
            self.go(self._target(command))
        return True

    def tick(self) -> None:
        """One step of play, to the next step that adds to the log (as `replay --speed`
        paces); it pauses at the end."""
        lines = len(self.screen.log)
        while self.position < self.last and len(self.screen.log) == lines:
            self.go(self.position + 1)
        self.playing = self.playing and self.position < self.last

    def _target(self, command: Command) -> int:
        frames = self.timeline.frames
        if command.name == "next":
            return self.position + 1
        if command.name == "back":
            return self.position - 1
        if command.name == "step":
            return command.number or 0
        if command.name == "round":
            return next(
                (i for i, r in enumerate(self._rounds) if r >= (command.number or 0)), self.last
            )
        if command.name == "decision" and self.timeline.viewer is None:
            self.message = "d follows a seat's decisions: replay with --seat N"
            return self.position
        wanted: Callable[[Any], bool] = (
            (lambda f: f.decision is not None and f.decision.asked)
            if command.name == "decision"
            else lambda f: bool(f.incidents)
        )
        found = next((i for i in range(self.position + 1, len(frames)) if wanted(frames[i])), None)
        if found is None:
            self.message = f"no further {command.name}"
            return self.position
        return found

    def go(self, position: int) -> None:
        position = max(0, min(self.last, position))
        if position == self.position + 1:
            self.screen.show(self.timeline.frames[position])
            if position == self.last:
                end(self.screen, self.timeline)
        elif position != self.position:
            self.screen = self._screen_at(position)
        self.position = position

    def _screen_at(self, position: int) -> MatchScreen:
        screen = screen_for(self.timeline, self.legend)
        for frame in self.timeline.frames[: position + 1]:
            screen.show(frame)
        if position == len(self.timeline.frames) - 1:
            end(screen, self.timeline)
        return screen

    def status(self, typing: str = "") -> Text:
        state = "playing" if self.playing else "paused"
        line = Text(
            f"step {self.position}/{self.last} · {self.screen.renderer.ROUND_KEY} "
            f"{self.screen.round} · {state}",
            style="bold",
        )
        if typing:
            line.append(f" · {typing}", style="bold yellow")
        if self.message:
            line.append(f" · {self.message}", style="yellow")
        line.append(f"\n{KEYS_HELP}", style="dim")
        return line


def run(
    timeline: Timeline,
    console: Console,
    delay: float,
    legend: bool = False,
    stdin: IO[str] | None = None,
) -> MatchScreen:
    """Replay `timeline` under the keys until q, Ctrl-D or the end of input; returns the
    screen last shown. The terminal's modes are restored however it ends."""
    player, keys = Player(timeline, legend), Keys()
    with quiet_keys(stdin) as fd:
        if fd is None:
            raise ValueError("the interactive replay reads keys from a terminal")
        with Live(console=console, screen=True, auto_refresh=False) as live:
            while True:
                player.screen.status = player.status(_typing(keys, player))
                live.update(player.screen, refresh=True)
                ready, _, _ = select.select([fd], [], [], delay if player.playing else None)
                if not ready:
                    player.tick()
                    continue
                data = os.read(fd, 64).decode(errors="ignore")
                if not data or not all(_apply(player, keys, key) for key in data):
                    break
    player.screen.status = None
    return player.screen


def _apply(player: Player, keys: Keys, key: str) -> bool:
    command = keys.feed(key)
    return command is None or player.apply(command)


def _typing(keys: Keys, player: Player) -> str:
    """The number being typed, after what it jumps to (the game's word for a round)."""
    if keys.numbered is None:
        return ""
    what = player.screen.renderer.ROUND_KEY if keys.numbered == "round" else keys.numbered
    return f"{what} {keys.typing}_ (Enter)"
