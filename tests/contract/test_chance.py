"""Named chance streams (`admiralty.games.chance`): a stream is a pure function of the
seed and its name, distinct names never share draws, and the seed never shows."""

from __future__ import annotations

import json
import random

import pytest

from admiralty.games.chance import Chance

BIG = 2**128 - 1 - 2**100
"""A 128-bit seed, as the tournament derives them."""


def draws(chance: Chance, *name, count: int = 8) -> list[int]:
    stream = chance.stream(*name)
    return [stream.getrandbits(64) for _ in range(count)]


def test_the_same_seed_and_name_give_the_same_draws():
    assert draws(Chance(7), "dice", 5) == draws(Chance(7), "dice", 5)
    chance = Chance(BIG)
    assert draws(chance, "deck", 2, 0) == draws(chance, "deck", 2, 0)


def test_a_stream_does_not_depend_on_what_was_drawn_before():
    """No hidden state: drawing from other streams, or from this one, shifts nothing."""
    fresh, used = Chance(11), Chance(11)
    for round_ in range(20):
        draws(used, "dice", round_, count=100)
    draws(used, "dice", 5, count=3)
    assert draws(used, "dice", 5) == draws(fresh, "dice", 5)
    assert used.rolls(range(6), 9, "dice", 5) == fresh.rolls(range(6), 9, "dice", 5)
    assert not hasattr(used, "__dict__")
    assert not any(isinstance(getattr(used, slot), random.Random) for slot in used.__slots__)


def test_different_names_give_different_draws():
    chance = Chance(3)
    names = [("dice", r) for r in range(300)] + [
        ("deck", s, n) for s in range(6) for n in range(50)
    ]
    names += [("treasure",), ("treasure", 0), ("crew", "north"), ("crew", "south"), ()]
    firsts = {chance.stream(*name).getrandbits(64) for name in names}
    assert len(firsts) == len(names)


def test_different_seeds_give_different_draws():
    seeds = [*range(500), BIG, BIG % 2**64, BIG % 2**64 + 2**64, 2**200 + 3]
    firsts = {Chance(seed).stream("dice", 1).getrandbits(64) for seed in seeds}
    assert len(firsts) == len(seeds)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (("a", 12), ("a1", 2)),
        (("a:1", 2), ("a", "1:2")),
        (("a:b",), ("a", "b")),
        (("ab",), ("a", "b")),
        (("deck", 1), ("deck", "1")),
        (("x",), ("x", "")),
        ((), ("",)),
        (("a,b",), ("a", "b")),
        (('a"', "b"), ("a", '"b')),
    ],
)
def test_names_are_never_ambiguous(first, second):
    chance = Chance(42)
    assert draws(chance, *first) != draws(chance, *second)


def test_a_bool_names_the_stream_of_the_int_it_equals():
    """Names are told apart by value, as dict keys are: ``True`` is ``1``, whichever of the
    two is drawn from first."""
    chance = Chance(42)
    assert draws(chance, "bool-first", True) == draws(chance, "bool-first", 1)
    assert draws(chance, "int-first", 0) == draws(chance, "int-first", False)
    assert draws(chance, "int-first", 0) != draws(chance, "int-first", 1)


@pytest.mark.parametrize("part", [1.5, None, b"deck", ("deck",)])
def test_a_name_is_made_of_str_and_int(part):
    with pytest.raises(TypeError, match="made of str and int"):
        Chance(1).rolls(range(6), 1, "dice", part)


def test_dice_and_shuffles_follow_the_documented_rule():
    """The bytes a draw reads are BLAKE2b of the seed's digits and the name's repr, with
    ``#k`` appended for block k > 0 (32-byte digests for dice, 64 for shuffles): replayed
    records depend on it, so a faster implementation must read the same bytes."""
    from hashlib import blake2b

    def blocks(text: bytes, size: int):
        yield from blake2b(text, digest_size=size).digest()
        for block in range(1, 100):
            yield from blake2b(text + b"#%d" % block, digest_size=size).digest()

    for seed in (0, 7, BIG):
        for faces in (tuple(range(6)), tuple(range(7)), tuple(range(200)), ("a", "b")):
            for name in (("dice", 3), ("combat", 5, 2, "morning", 1, 3, "attacker", 0)):
                text = b"%d" % seed + repr(name).encode()
                limit = 256 - 256 % len(faces)
                expected = [faces[b % len(faces)] for b in blocks(text, 32) if b < limit]
                for count in (1, 2, 40):
                    assert Chance(seed).rolls(faces, count, *name) == tuple(expected[:count])
        items = list(range(12))
        text = b"%d" % seed + repr(("deck", 2, 1)).encode()
        expected, i = items[:], 11  # Fisher-Yates, each place drawn from one byte
        for byte in blocks(text, 64):
            if byte < 256 - 256 % (i + 1):
                j = byte % (i + 1)
                expected[i], expected[j] = expected[j], expected[i]
                i -= 1
                if not i:
                    break
        assert Chance(seed).shuffled(items, "deck", 2, 1) == expected


def test_shuffled_is_a_permutation_fixed_by_the_name():
    chance = Chance(BIG)
    items = list(range(52))
    deck = chance.shuffled(items, "deck", 0)
    assert sorted(deck) == items and deck != items
    assert items == list(range(52))  # the input is left as it was
    assert chance.shuffled(iter(items), "deck", 0) == deck
    assert chance.shuffled(items, "deck", 1) != deck
    assert Chance(5).shuffled("abcd", "x") == Chance(5).shuffled(["a", "b", "c", "d"], "x")
    assert chance.shuffled([], "empty") == []


def test_a_shuffle_is_a_permutation_fixed_by_the_seed_and_the_name():
    """Deterministic per (seed, name), different across names and seeds, whatever the
    length (a list longer than 256 draws more than one byte a place)."""
    for size in (2, 3, 12, 60, 255, 256, 257, 1000):
        items = list(range(size))
        deck = Chance(BIG).shuffled(items, "deck", size)
        assert sorted(deck) == items
        assert Chance(BIG).shuffled(items, "deck", size) == deck
        assert Chance(BIG).shuffled(items, "deck", size, 1) != deck or size == 2
        assert Chance(BIG - 1).shuffled(items, "deck", size) != deck or size == 2
    chance = Chance(13)
    orders = {
        tuple(chance.shuffled(range(12), "deck", seat, k)) for seat in range(6) for k in range(50)
    }
    assert len(orders) == 300  # 12! orders: 300 names never meet by chance
    assert chance.shuffled(["only"], "deck") == ["only"]
    assert chance.shuffled((x for x in "ab"), "pair") in (["a", "b"], ["b", "a"])


def test_every_order_of_a_shuffle_is_as_likely():
    """24,000 shuffles of 4 cards: each of the 24 orders within 5 standard deviations of its
    share, and each card as often in each place."""
    chance = Chance(BIG)
    count = 24_000
    orders = [tuple(chance.shuffled("abcd", "fair", n)) for n in range(count)]
    share = count / 24
    spread = 5 * (count * (1 / 24) * (23 / 24)) ** 0.5
    tallies = {order: orders.count(order) for order in set(orders)}
    assert len(tallies) == 24 and all(abs(n - share) < spread for n in tallies.values())
    for place in range(4):
        column = [order[place] for order in orders]
        assert all(
            abs(column.count(card) - count / 4) < 5 * (count * 3 / 16) ** 0.5 for card in "abcd"
        )


def test_rolls_throw_the_die_the_number_of_times_asked():
    chance = Chance(9)
    faces = (2, 4, 6, 8, 10, "star")
    rolls = chance.rolls(faces, 600, "dice", 1)
    assert isinstance(rolls, tuple) and len(rolls) == 600 and set(rolls) == set(faces)
    assert chance.rolls(faces, 600, "dice", 1) == rolls
    assert chance.rolls(faces, 3, "dice", 1) == rolls[:3]
    assert chance.rolls(faces, 0, "dice", 1) == ()
    assert chance.rolls(faces, 600, "dice", 2) != rolls
    assert chance.rolls(faces, 600, "dice", 1) != chance.rolls(faces, 600, "dice", "1")


def test_every_face_of_a_die_is_as_likely():
    """60,000 throws: each face within 5 standard deviations of its share."""
    chance = Chance(BIG)
    for faces in (range(6), range(5), range(1, 21)):
        count = 60_000
        rolls = chance.rolls(tuple(faces), count, "fair", len(faces))
        expected = count / len(faces)
        spread = 5 * (count * (1 / len(faces)) * (1 - 1 / len(faces))) ** 0.5
        assert all(abs(rolls.count(face) - expected) < spread for face in faces)


def test_a_die_has_one_to_256_faces():
    chance = Chance(1)
    assert chance.rolls(("only",), 5, "one") == ("only",) * 5
    assert set(chance.rolls(tuple(range(256)), 5000, "big")) == set(range(256))
    for faces in ((), tuple(range(257))):
        with pytest.raises(ValueError):
            chance.rolls(faces, 1, "bad")


def test_the_repr_hides_the_seed():
    for seed in (123456789, BIG):
        shown = repr(Chance(seed)) + str(Chance(seed))
        assert str(seed) not in shown and hex(seed)[2:] not in shown
    assert repr(Chance(1)) == "Chance(<hidden seed>)"


def test_the_snapshot_is_the_seed_as_decimal_text():
    for seed in (0, 7, 2**53 + 1, BIG, 2**200 + 3):
        snapshot = Chance(seed).snapshot()
        assert snapshot == str(seed) and int(snapshot) == seed
        assert json.loads(json.dumps(snapshot)) == snapshot


def test_a_128_bit_seed_uses_all_its_bits():
    low = BIG % 2**64
    assert draws(Chance(BIG), "dice", 1) != draws(Chance(low), "dice", 1)
    assert draws(Chance(BIG), "dice", 1) != draws(Chance(BIG - 2**127), "dice", 1)
    assert draws(Chance(BIG), "dice", 1) == draws(Chance(int(str(BIG))), "dice", 1)


def test_a_test_rigs_the_chance_in_a_subclass():
    """What the games' `arrange` modules do: dice are set by overriding `rolls`, shuffles by
    overriding `shuffled`, every other draw by overriding `stream` (neither dice nor
    shuffles go through `stream`)."""

    class Loaded(Chance):
        def stream(self, *name):
            return random.Random(0)

        def shuffled(self, items, *name):
            return list(items)[::-1]

        def rolls(self, faces, count, *name):
            return (faces[-1],) * count

    loaded = Loaded(1)
    assert loaded.rolls((1, 2, 6), 3, "dice") == (6, 6, 6)
    assert loaded.shuffled([1, 2, 3], "deck") == [3, 2, 1]
    assert loaded.stream("captain").random() == random.Random(0).random()
    assert repr(loaded) == "Loaded(<hidden seed>)"
    assert Chance(1).shuffled(range(40), "deck") == Chance(1).shuffled(range(40), "deck")
    assert Chance(1).shuffled(range(40), "deck") != Loaded(1).shuffled(range(40), "deck")
