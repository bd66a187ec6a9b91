"""Named chance streams: every random draw of a game comes from a stream named for its purpose.

A stream is a pure function of the match seed and its name: ``("dice", 5)`` is the dice
of round 5, ``("deck", 2, 0)`` the first shuffle of seat 2's deck. Two matches on one
deal therefore see the same dice in round 5 whatever was decided before it — the
condition for duplicate seating to compare bots on equal luck — and a state holds no
RNG state at all: a clone copies one integer and a snapshot stays small.

Name streams by what they decide, never by how many draws came before (a running
counter would let one different decision shift every later draw).

>>> chance = Chance(7)
>>> chance.stream("dice", 5).random() == Chance(7).stream("dice", 5).random()
True
>>> chance.stream("dice", 5).random() == chance.stream("dice", 6).random()
False
>>> chance.shuffled(["a", "b", "c", "d"], "deck", 0) == chance.shuffled("abcd", "deck", 0)
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")
Name = str | int


class Chance:
    """The chance of one game: named streams derived from its seed.

    The seed is hidden information: it must never reach a view, an event or a log.
    Tests that need set dice subclass this and override `rolls` (dice do not go through
    `stream`), or `stream` for every other draw (see the games' `arrange` modules)."""

    __slots__ = ("_prefix", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._prefix = b"%d" % seed

    def stream(self, *name: Name) -> random.Random:
        """A fresh generator for the stream `name`: the same name gives the same draws."""
        return random.Random(int.from_bytes(_hash(self._text(name), 16), "big"))

    def shuffled(self, items: Iterable[T], *name: Name) -> list[T]:
        """`items` in the order the stream `name` shuffles them."""
        out = list(items)
        self.stream(*name).shuffle(out)
        return out

    def rolls(self, faces: Sequence[T], count: int, *name: Name) -> tuple[T, ...]:
        """`count` throws of a die with `faces` (at most 256), from the stream `name`.

        Dice are the commonest draw and seeding a `random.Random` costs microseconds, so
        they are read straight from a hash of the stream's name, extended in counter mode:
        each byte below the largest multiple of `len(faces)` is one fair throw (the other
        bytes are skipped, so no face is favoured)."""
        sides = len(faces)
        if not 0 < sides <= 256:
            raise ValueError(f"a die has 1 to 256 faces, not {sides}")
        if count <= 0:
            return ()
        limit = 256 - 256 % sides
        text, thrown, block = self._text(name), [], 0
        while True:
            for byte in _hash(text + b"#%d" % block if block else text, 32):
                if byte < limit:
                    thrown.append(faces[byte % sides])
                    if len(thrown) >= count:
                        return tuple(thrown)
            block += 1

    def _text(self, name: tuple[Name, ...]) -> bytes:
        """The seed's digits, then the name's `repr`, which keeps apart names a joined
        string would confuse: ``("a:1", 2)`` and ``("a", "1:2")``, ``1`` and ``"1"``."""
        return self._prefix + _encoded(*name)

    def snapshot(self) -> str:
        """The seed as decimal text (JSON numbers lose precision past 2**53)."""
        return str(self.seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(<hidden seed>)"


@lru_cache(maxsize=1 << 12, typed=True)
def _encoded(*name: Name) -> bytes:
    """`repr(name)` as bytes, worked out once per name: every game draws from the same
    names (``("dice", 1)``...), and a repr costs more than a lookup. `typed`, so that
    ``1`` and ``True`` (equal, with equal hashes) are told apart."""
    return repr(name).encode()


def _hash(text: bytes, size: int) -> bytes:
    return hashlib.blake2b(text, digest_size=size).digest()
