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

import random
from collections.abc import Iterable, Sequence
from hashlib import blake2b
from typing import TypeVar

T = TypeVar("T")
Name = str | int


class Chance:
    """The chance of one game: named streams derived from its seed.

    The seed is hidden information: it must never reach a view, an event or a log.
    Tests that need set draws subclass this and override `rolls` for dice or `shuffled`
    for shuffles (neither goes through `stream`), or `stream` for every other draw (see
    the games' `arrange` modules)."""

    __slots__ = ("_prefix", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._prefix = b"%d" % seed

    def stream(self, *name: Name) -> random.Random:
        """A fresh generator for the stream `name`: the same name gives the same draws."""
        return random.Random(int.from_bytes(_hash(self._text(name), 16), "big"))

    def shuffled(self, items: Iterable[T], *name: Name) -> list[T]:
        """`items` in the order the stream `name` shuffles them.

        A game shuffles a dozen times or more and seeding a `random.Random` costs more than
        the shuffle, so, like the dice, a shuffle is read straight from a hash of the
        stream's name, extended in counter mode: a Fisher-Yates shuffle whose draw for
        position `i` (a place among the `i + 1` not yet fixed) is one byte while `i < 256`,
        more above, each below the largest multiple of `i + 1` that fits (the others are
        skipped, so every order is as likely). Its hash is 64 bytes long, the dice's 32 and
        a `stream`'s seed 16: BLAKE2 hashes of different lengths share nothing, so a shuffle
        never reuses the bytes of a draw of another kind on the same name."""
        out = list(items)
        i = len(out) - 1
        if i < 1:
            return out
        text, block = self._prefix + (_ENCODED.get(name) or _encode(name)), 0  # `_text`
        if i >= 256:  # a long list: a draw takes as many bytes as its bound needs
            left = b""
            while i >= 256:
                width = (i.bit_length() + 7) // 8
                if len(left) < width:
                    left += _hash(text + b"#%d" % block if block else text, 64)
                    block += 1
                draw, left = int.from_bytes(left[:width], "big"), left[width:]
                span = 1 << 8 * width
                if draw < span - span % (i + 1):
                    j = draw % (i + 1)
                    out[i], out[j] = out[j], out[i]
                    i -= 1
        while True:  # one byte a draw, from the next block (bytes left over are dropped)
            for byte in blake2b(text + b"#%d" % block if block else text).digest():
                if byte < _LIMITS[i]:
                    j = byte % (i + 1)
                    out[i], out[j] = out[j], out[i]
                    i -= 1
                    if not i:
                        return out
            block += 1

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
        text = self._prefix + (_ENCODED.get(name) or _encode(name))  # `_text`, inlined
        hasher = _DICE.copy()  # `blake2b(..., digest_size=32)`, see `_DICE`
        hasher.update(text)
        digest = hasher.digest()
        if count == 1 and digest[0] < limit:  # one die, as in most draws: its first byte
            return (faces[digest[0] % sides],)
        thrown, block = [], 0
        while True:
            for byte in digest:
                if byte < limit:
                    thrown.append(faces[byte % sides])
                    if len(thrown) >= count:
                        return tuple(thrown)
            block += 1
            hasher = _DICE.copy()
            hasher.update(text + b"#%d" % block)
            digest = hasher.digest()

    def _text(self, name: tuple[Name, ...]) -> bytes:
        """The seed's digits, then the name's `repr`, which keeps apart names a joined
        string would confuse: ``("a:1", 2)`` and ``("a", "1:2")``, ``1`` and ``"1"``."""
        return self._prefix + (_ENCODED.get(name) or _encode(name))

    def snapshot(self) -> str:
        """The seed as decimal text (JSON numbers lose precision past 2**53)."""
        return str(self.seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(<hidden seed>)"


def _encode(name: tuple[Name, ...]) -> bytes:
    """`repr(name)` as bytes, remembered in `_ENCODED`: every game draws from the same names
    (``("dice", 1)``...), and a repr costs more than a lookup.

    The cache is a plain dict, so names that are equal share an entry: a part is a `str`
    or an `int`, and a `bool` is written as the `int` it equals (``True`` as ``1``), so
    that equal names always name one stream, whichever was drawn first."""
    for part in name:
        if part.__class__ not in _PARTS:
            raise TypeError(f"a stream's name is made of str and int, not {part!r}")
    text = repr(tuple([int(part) if part.__class__ is bool else part for part in name]))
    if len(_ENCODED) >= _ENCODED_SIZE:  # a bound, not an LRU: the common names come back
        _ENCODED.clear()
    encoded = _ENCODED[name] = text.encode()
    return encoded


_ENCODED: dict[tuple[Name, ...], bytes] = {}
"""`_encode`'s answers, by name. A lookup in it is what a draw costs beyond its hash:
`functools.lru_cache` (typed, to tell ``1`` from ``True``) cost the dice as much as
hashing them."""

_ENCODED_SIZE = 1 << 13
_PARTS = (str, int, bool)


_DICE = blake2b(digest_size=32)
"""An empty 32-byte BLAKE2b, copied for each block of dice: parsing the `digest_size`
keyword costs more than hashing the block, and a copy skips it."""

_LIMITS = tuple(256 - 256 % (i + 1) for i in range(256))
"""For a shuffle's position `i` below 256: the bytes below this give a fair place in
``0..i`` (their remainder modulo ``i + 1``); the rest are skipped."""


def _hash(text: bytes, size: int) -> bytes:
    return blake2b(text, digest_size=size).digest()
