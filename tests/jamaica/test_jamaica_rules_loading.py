"""Loading ([jamaica §6.1]): one empty hold, or empty one of another kind first."""

from __future__ import annotations

from jamaica_helpers import new, public, round_with

from admiralty.games import Window
from admiralty.games.jamaica import arrange
from admiralty.games.jamaica.arrange import choose, keys

GOLD_FORWARD, GOLD_GOLD, GUNPOWDER_FOOD = 7, 8, 10


def holds_of(state, seat):
    ship = state.ships[seat]
    return list(zip(ship.kinds, ship.counts, strict=True))


def test_a_load_goes_whole_into_an_empty_hold_without_asking_when_holds_are_alike():
    """[jamaica §6.1.1, §6.1.2]: all the die's tokens into one empty hold; empty board holds
    are interchangeable, so there is nothing to ask."""
    state = new(3)
    events = round_with(state, {}, dice=(5, 3))
    assert holds_of(state, 0) == [
        ("food", 3),
        ("gold", 3),
        ("gunpowder", 5),
        ("food", 3),
        (None, 0),
    ]
    assert public(events, "loaded")[0] == {
        "ship": 0,
        "kind": "gunpowder",
        "count": 5,
        "hold": 2,
        "emptied": None,
        "source": "bank",
    }
    assert state.bank["gunpowder"] == 45 - 15


def test_the_sixth_hold_is_its_own_choice():
    """[jamaica §6.1.6]: the 6th Hold counts as a hold and differs from the board's."""
    state = new(3)
    arrange.treasure(state, 0, "sixth_hold")
    round_with(state, {0: GUNPOWDER_FOOD})
    request = state.pending()[0]
    assert (request.seat, request.kind, request.window) == (0, "load", Window.TURN)
    assert keys(state) == ["hold:2", "hold:5"]
    assert dict(request.options[1].payload) == {
        "hold": 5,
        "load_kind": "gunpowder",
        "load_count": 4,
        "kind": None,
        "count": 0,
    }
    choose(state, "hold:5", seat=0)
    assert holds_of(state, 0)[5] == ("gunpowder", 4)


def test_with_no_empty_hold_only_a_hold_of_another_kind_may_be_emptied():
    """[jamaica §6.1.3, §6.1.4, G6]: its tokens go back to the bank; a hold of
    the kind being loaded may not be emptied; holds alike are offered once."""
    state = new(3)
    arrange.holds(state, 0, [("food", 3), ("food", 3), ("gunpowder", 2), ("gold", 2), ("gold", 4)])
    round_with(state, {0: GUNPOWDER_FOOD}, dice=(3, 1))
    assert keys(state) == ["empty:0", "empty:3", "empty:4"]
    events = choose(state, "empty:4", seat=0)
    assert public(events, "loaded")[0] == {
        "ship": 0,
        "kind": "gunpowder",
        "count": 3,
        "hold": 4,
        "emptied": {"kind": "gold", "count": 4},
        "source": "bank",
    }
    assert holds_of(state, 0)[4] == ("gunpowder", 3)
    assert state.bank["gold"] == 80 - 9 + 3 - 6 + 4


def test_emptying_a_hold_of_the_same_kind_is_a_variant():
    """[jamaica §6.1.4, G6]: with allow_dump_same_kind the hold of the same kind is offered too."""
    state = new(3, allow_dump_same_kind=True)
    arrange.holds(state, 0, [("food", 3), ("food", 3), ("gunpowder", 2), ("gold", 2), ("gold", 4)])
    round_with(state, {0: GUNPOWDER_FOOD}, dice=(3, 1))
    assert keys(state) == ["empty:0", "empty:2", "empty:3", "empty:4"]


def test_a_load_is_cancelled_when_every_hold_holds_that_kind():
    """[jamaica §6.1.4]: all holds full of the same kind: nothing is loaded.
    (The evening food then empties one of the gunpowder holds, all alike: no question.)"""
    state = new(3)
    arrange.holds(state, 0, [("gunpowder", 1)] * 5)
    events = round_with(state, {0: GUNPOWDER_FOOD})
    assert public(events, "load_cancelled")[0] == {
        "ship": 0,
        "kind": "gunpowder",
        "reason": "holds_full",
    }
    assert holds_of(state, 0) == [("food", 2)] + [("gunpowder", 1)] * 4


def test_gold_gold_fills_two_different_holds():
    """[jamaica §14.2] case 2: dice 4 (morning) and 2 (evening): two holds of 4 and 2."""
    state = new(3)
    round_with(state, {0: GOLD_GOLD}, dice=(4, 2))
    assert holds_of(state, 0) == [("food", 3), ("gold", 3), ("gold", 4), ("gold", 2), (None, 0)]


def test_gold_gold_with_full_holds_empties_two_holds_of_other_kinds():
    """[jamaica §14.2] case 2: no empty hold: each load empties a hold of another kind first,
    and never the hold the morning load filled, so the result is never one hold of 6."""
    state = new(3)
    arrange.holds(state, 0, [("food", 3), ("gold", 3), ("food", 2), ("gunpowder", 1), ("food", 1)])
    round_with(state, {0: GOLD_GOLD}, dice=(4, 2))
    assert keys(state) == ["empty:0", "empty:2", "empty:3", "empty:4"]
    choose(state, "empty:0", seat=0)
    assert keys(state) == ["empty:2", "empty:3", "empty:4"]
    choose(state, "empty:4", seat=0)
    assert holds_of(state, 0) == [
        ("gold", 4),
        ("gold", 3),
        ("food", 2),
        ("gunpowder", 1),
        ("gold", 2),
    ]


def test_gold_gold_never_empties_the_morning_hold_even_when_dumping_is_allowed():
    """[jamaica §5.3]: the two loads go into two different holds."""
    state = new(3, allow_dump_same_kind=True)
    arrange.holds(state, 0, [("gold", 3), ("gold", 3), ("gold", 2), ("gold", 1), ("food", 1)])
    round_with(state, {0: GOLD_GOLD}, dice=(4, 2))
    choose(state, "empty:4", seat=0)
    assert keys(state) == ["empty:0", "empty:2", "empty:3"]


def test_the_bank_gives_what_it_has():
    """[jamaica §6.1.7, G20]: a short bank loads what it has; an empty one loads nothing."""
    state = new(3)
    arrange.holds(state, 1, [("gunpowder", 43), None, None, None, None])
    events = round_with(state, {}, dice=(4, 2))
    loads = [(e["ship"], e["count"]) for e in public(events, "loaded") if e["kind"] == "gunpowder"]
    assert loads == [(0, 2)]
    assert public(events, "load_cancelled") == [
        {"ship": 1, "kind": "gunpowder", "reason": "bank_empty"},
        {"ship": 2, "kind": "gunpowder", "reason": "bank_empty"},
    ]


def test_a_same_kind_hold_is_emptied_before_the_bank_gives():
    """[jamaica §6.1.3, §6.1.4, §6.1.7, G6, G20]: with allow_dump_same_kind the chosen hold is
    emptied into the bank first, then the bank gives; the bank holds no gold, so emptying
    the 5-gold hold still loads 3, while emptying a hold of food or gunpowder would load
    nothing and is not offered."""
    state = new(3, allow_dump_same_kind=True)
    arrange.place(state, 0, 3)
    arrange.holds(state, 0, [("gold", 5), ("gold", 1), ("food", 3), ("food", 2), ("gunpowder", 1)])
    arrange.holds(state, 1, [("food", 3), ("gold", 80 - 6 - 3), None, None, None])
    assert state.bank["gold"] == 0
    round_with(state, {0: GOLD_FORWARD}, dice=(3, 1))
    assert keys(state) == ["empty:0", "empty:1"]
    assert [o.payload["load_count"] for o in state.pending()[0].options] == [3, 1]
    events = choose(state, "empty:0", seat=0)
    assert public(events, "loaded")[0] == {
        "ship": 0,
        "kind": "gold",
        "count": 3,
        "hold": 0,
        "emptied": {"kind": "gold", "count": 5},
        "source": "bank",
    }
    assert holds_of(state, 0)[:2] == [("gold", 3), ("gold", 1)]
    assert state.bank["gold"] == 2


def test_no_hold_is_emptied_while_one_is_empty():
    """[jamaica §6.1.5, G27]: a free hold takes the morning load, even when emptying another is
    allowed, so there is nothing to ask; only the evening load, with no hold free, asks."""
    state = new(3, allow_dump_same_kind=True)
    arrange.holds(state, 0, [("food", 3), ("gold", 3), ("gunpowder", 2), ("food", 1), None])
    events = round_with(state, {0: GUNPOWDER_FOOD}, dice=(4, 2))
    assert public(events, "loaded") == [
        {"ship": 0, "kind": "gunpowder", "count": 4, "hold": 4, "emptied": None, "source": "bank"}
    ]
    assert keys(state) == ["empty:0", "empty:1", "empty:2", "empty:3", "empty:4"]
