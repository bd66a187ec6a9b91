"""Named chance streams: what a seed deals, and deck orders no decision can shift.

Every random draw of a game comes from a stream named for its purpose (`Table`'s
docstring lists them): the seat colours, each development pile, and the k-th shuffle of
each deck [black_fleet §4.1, §5.7, §10]. So the deal depends on the seed alone, and two games
on one seed see the cards of the k-th reshuffle in one order whatever was decided before
it, which is what lets duplicate seating compare bots on equal luck.
"""

from __future__ import annotations

import random

import pytest

from admiralty.games.chance import Chance

DECKS = ("movement", "fortune")


def deal(state, seats: int | None = None) -> list:
    """Everything the setup dealt to the first `seats` seats, as plain data."""
    players = state.seats[: seats or len(state.seats)]
    return [
        [p.colour for p in players],
        [dict(p.development) for p in players],
        [list(p.movement) for p in players],
        [list(p.fortune) for p in players],
    ]


def test_the_deal_depends_on_the_seed_only(game):
    """Options other than the seed change nothing in the deal; another seed deals another
    game."""
    plain = game.new_game(4, 11)
    varied = game.new_game(4, 11, {"victory_cost": [20, 10, 20, 10], "round_cap": 5})
    assert deal(varied) == deal(plain)
    assert (varied.box, varied.movement_deck, varied.fortune_deck) == (
        plain.box,
        plain.movement_deck,
        plain.fortune_deck,
    )
    assert deal(game.new_game(4, 12)) != deal(plain)


def test_three_seats_are_dealt_what_the_first_three_of_four_are(game):
    """Seats are dealt in order from the same streams, so a 3-player game on a seed deals
    seats 0-2 exactly what the 4-player game on that seed deals them."""
    for seed in range(5):
        assert deal(game.new_game(3, seed)) == deal(game.new_game(4, seed), 3)


def test_the_deal_follows_the_named_streams(game):
    """The colours of seats 1-3 are the stream ("colours",)'s shuffle; seat 0 is black."""
    seed = 2024
    state = game.new_game(4, seed)
    others = Chance(seed).shuffled(state.data.setup.colours[1:], "colours")
    assert [p.colour for p in state.seats] == ["black", *others[:3]]


def shuffles_of(state) -> list[tuple[str, int, list[str]]]:
    """Record every shuffle of `state`'s decks as (deck, k, the cards in their new order)."""
    made: list[tuple[str, int, list[str]]] = []
    shuffle = state.shuffle

    def recorded(deck: str, cards: list[str]) -> list[str]:
        k = state.shuffles[deck]
        out = shuffle(deck, cards)
        made.append((deck, k, list(out)))
        return out

    state.shuffle = recorded
    return made


def play(state, seed: int, decisions: int) -> None:
    bot = random.Random(seed)
    for _ in range(decisions):
        if state.outcome() is not None:
            return
        request = state.pending()[0]
        state.apply(request.seat, bot.randrange(len(request.options)))


def common_order(cards: list[str], other: list[str]) -> list[str]:
    """`cards` restricted to those `other` also holds, in the order of `cards`."""
    kept = set(other)
    return [card for card in cards if card in kept]


@pytest.mark.parametrize("seed", [5, 6])
def test_the_kth_shuffle_orders_cards_alike_whatever_was_decided(game, seed):
    """Two games on one seed, decided by different random bots, reshuffle discard piles
    that differ; yet the k-th shuffle of a deck puts the cards both piles hold in the
    same order, and equal piles come out identical."""
    first, second = game.new_game(4, seed), game.new_game(4, seed)
    made = [shuffles_of(first), shuffles_of(second)]
    play(first, 1, 2500)
    play(second, 2, 2500)
    by_key = [{(deck, k): cards for deck, k, cards in shuffles} for shuffles in made]
    both = set(by_key[0]) & set(by_key[1])
    for deck in DECKS:
        assert (deck, 1) in both and (deck, 2) in both  # reshuffled twice at least
    differed = False
    for key in sorted(both):
        one, other = by_key[0][key], by_key[1][key]
        assert common_order(one, other) == common_order(other, one), key
        if set(one) == set(other):
            assert one == other
        differed |= set(one) != set(other)
    assert differed  # the decisions did change what was reshuffled


def test_the_chance_is_shared_by_clones_and_snapshotted_as_its_seed(game):
    """The chance streams hold no state: a clone shares them, the snapshot keeps the seed
    (as text) and each deck's shuffle count, and no view shows the seed."""
    seed = 2**100 + 7
    state = game.new_game(4, seed)
    play(state, 3, 40)
    copy = state.clone()
    assert copy.chance is state.chance and copy.shuffles == state.shuffles
    copy.shuffles["movement"] += 1
    assert state.shuffles != copy.shuffles
    snapshot = state.snapshot()
    assert snapshot["chance"] == str(seed) and snapshot["shuffles"] == state.shuffles
    assert all(str(seed) not in str(state.view(viewer)) for viewer in (None, 0, 1, 2, 3))
