"""The decision flow of the engine kit (`admiralty.games.flow`), on toy games.

Each toy game is a handful of methods that log what ran; the frames, asks, sealed windows
and polls under test call them, bound to the toy, as an engine's do.
"""

from __future__ import annotations

import gc
import json
import weakref

import pytest

from admiralty.games import IllegalAction, Option, Window
from admiralty.games.flow import Flow, Poll, is_step, step

ABC = (Option("a", "A"), Option("b", "B"), Option("c", "C"))
ONLY = (Option("only", "The only choice"),)
PASS, ACT = Option("pass", "Pass"), Option("act", "Act")


class Toy:
    """A game whose methods log what ran. `eligible` are the seats a poll's offer asks."""

    def __init__(self, eligible=(0, 1, 2, 3)):
        self.flow, self.log, self.eligible = Flow(), [], set(eligible)

    def start(self, *frames):
        """Push `frames` and run them: frames name this toy's methods, so the toy comes first."""
        self.flow.push(*frames)
        self.flow.run()
        return self

    def apply(self, seat, index):
        return self.flow.apply(seat, index)

    # frames
    def note(self, label):
        self.log.append(label)

    def nest(self, label, *children):
        """Log `label`, then push a `note` frame for every child (the first runs first)."""
        self.log.append(label)
        self.flow.push(*(step(self.note, child) for child in children))

    def pick(self, seat, label, optional=False, publish=False):
        self.flow.ask(
            seat,
            Window.TURN,
            "pick",
            label,
            ABC,
            step(self.picked, label),
            optional=optional,
            publish=publish,
        )

    def single(self, seat, label, optional=False, publish=False):
        self.flow.ask(
            seat,
            Window.TURN,
            "single",
            label,
            ONLY,
            step(self.picked, label),
            optional=optional,
            publish=publish,
        )

    def branch(self, seat):
        """One continuation per option."""
        self.flow.ask(
            seat,
            Window.TURN,
            "branch",
            "",
            ABC,
            (step(self.picked, "step 1"), step(self.picked, "step 2"), step(self.picked, "step 3")),
        )

    def bid(self, players, label):
        self.flow.seal("bid", label, [ABC] * players, step(self.bid_in, label))

    def end(self):
        self.flow.stop()

    # continuations
    def picked(self, option, label):
        self.log.append((label, option.key))

    def bid_in(self, option, label, seat):
        self.log.append((label, seat, option.key))

    # polls
    def offer(self, seat, label):
        if seat in self.eligible:
            self.flow.ask(
                seat,
                Window.INTERRUPT,
                "react",
                label,
                (PASS, ACT),
                step(self.reacted, label, seat),
                polled=True,
            )

    def reacted(self, option, label, seat):
        """An act; one on the `outer` poll provokes an `inner` poll of its own."""
        self.log.append((label, seat, option.key))
        if label == "outer":
            self.flow.push(Poll((0, 1, 2), self.offer, ("inner",)))


def asked(toy: Toy) -> list[tuple[int, int, str]]:
    """The open requests as (seat, window id, prompt)."""
    return [(r.seat, r.window_id, r.prompt) for r in toy.flow.pending()]


# --------------------------------------------------------------------------- frames


def test_a_step_is_a_plain_pair_told_apart_from_a_poll_and_a_tuple_of_steps():
    """Plain tuples, so that the flow unpacks them at the interpreter's fastest."""
    toy = Toy()
    assert step(toy.note, 1, "a") == (toy.note, (1, "a")) and type(step(toy.note)) is tuple
    assert step(toy.note) == (toy.note, ())
    assert is_step(step(toy.note, 1))
    assert not is_step((step(toy.note), step(toy.nest)))  # a step per option, even two
    assert not is_step(Poll((0, 1), toy.offer)) and not is_step(()) and not is_step("go")


def test_frames_run_in_the_order_they_are_pushed():
    toy = Toy()
    toy.start(step(toy.note, "one"), step(toy.note, "two"), step(toy.note, "three"))
    assert toy.log == ["one", "two", "three"]
    assert toy.flow.pending() == [] and toy.flow.stack == []


def test_a_later_push_runs_before_the_frames_already_there():
    toy = Toy()
    toy.flow.push(step(toy.note, "pushed first"))
    toy.flow.push(step(toy.note, "pushed second"), step(toy.note, "pushed third"))
    toy.flow.run()
    assert toy.log == ["pushed second", "pushed third", "pushed first"]


def test_the_frames_a_step_pushes_run_before_the_frames_below_it():
    toy = Toy()
    toy.start(step(toy.nest, "outer", "x", "y"), step(toy.note, "after"))
    assert toy.log == ["outer", "x", "y", "after"]


def test_nesting_goes_as_deep_as_the_steps_push():
    toy = Toy()
    toy.start(
        step(toy.nest, "1", "1.1"),
        step(toy.nest, "2"),
        step(toy.pick, 0, "ask"),
        step(toy.note, "last"),
    )
    assert toy.log == ["1", "1.1", "2"] and asked(toy) == [(0, 1, "ask")]
    toy.apply(0, 2)
    assert toy.log == ["1", "1.1", "2", ("ask", "c"), "last"]


# ----------------------------------------------------------------------------- asks


def test_a_single_option_is_applied_without_a_request_or_a_window_id():
    toy = Toy()
    toy.start(step(toy.single, 2, "forced"), step(toy.note, "after"))
    assert toy.log == [("forced", "only"), "after"]
    assert toy.flow.pending() == [] and toy.flow.window_id == 0
    assert toy.flow.snapshot()["asked"] is None


@pytest.mark.parametrize(("optional", "publish"), [(True, False), (False, True), (True, True)])
def test_an_optional_or_published_single_option_opens_a_request(optional, publish):
    toy = Toy()
    toy.start(step(toy.single, 2, "shown", optional, publish), step(toy.note, "after"))
    assert toy.log == [] and asked(toy) == [(2, 1, "shown")]
    assert toy.flow.pending()[0].optional is optional
    toy.apply(2, 0)
    assert toy.log == [("shown", "only"), "after"] and toy.flow.window_id == 1


def test_window_ids_count_only_the_requests_opened():
    toy = Toy()
    toy.start(
        step(toy.single, 0, "auto 1"),
        step(toy.pick, 1, "open 1"),
        step(toy.single, 2, "auto 2"),
        step(toy.single, 3, "auto 3"),
        step(toy.pick, 0, "open 2"),
        step(toy.single, 0, "published", False, True),
    )
    assert asked(toy) == [(1, 1, "open 1")]
    toy.apply(1, 0)
    assert asked(toy) == [(0, 2, "open 2")]
    toy.apply(0, 1)
    assert asked(toy) == [(0, 3, "published")]
    toy.apply(0, 0)
    assert toy.log == [
        ("auto 1", "only"),
        ("open 1", "a"),
        ("auto 2", "only"),
        ("auto 3", "only"),
        ("open 2", "b"),
        ("published", "only"),
    ]
    assert toy.flow.window_id == 3


def test_one_step_continues_every_option_with_the_option_chosen():
    for index, key in enumerate("abc"):
        toy = Toy()
        toy.start(step(toy.pick, 0, "one step"))
        toy.apply(0, index)
        assert toy.log == [("one step", key)]


def test_a_tuple_of_steps_continues_each_option_with_its_own_step():
    logs = []
    for index in range(3):
        toy = Toy()
        toy.start(step(toy.branch, 1), step(toy.note, "after"))
        toy.apply(1, index)
        logs.append(toy.log)
    assert logs == [
        [("step 1", "a"), "after"],
        [("step 2", "b"), "after"],
        [("step 3", "c"), "after"],
    ]


def test_a_single_option_with_a_tuple_of_steps_takes_the_first():
    class Single(Toy):
        def branch(self, seat):
            self.flow.ask(seat, Window.TURN, "branch", "", ONLY, (step(self.picked, "first"),))

    single = Single()
    assert single.start(step(single.branch, 0)).log == [("first", "only")]


def test_a_single_option_runs_before_the_frames_its_step_pushed_and_chains():
    class Chain(Toy):
        def single_then_push(self, label):
            self.flow.ask(0, Window.TURN, "single", label, ONLY, step(self.forced, label))
            self.flow.push(step(self.note, "pushed"))

        def forced(self, option, label):
            self.log.append((label, option.key))
            if label == "first":  # a single-option ask opened by a single-option answer
                self.flow.ask(1, Window.TURN, "single", "second", ONLY, step(self.forced, "second"))

        def pick_then_chain(self):
            self.flow.ask(0, Window.TURN, "pick", "", ABC, step(self.forced, "first"))

    toy = Chain()
    toy.start(
        step(toy.single_then_push, "first"), step(toy.pick_then_chain), step(toy.note, "after")
    )
    assert toy.log == [("first", "only"), ("second", "only"), "pushed"]
    assert asked(toy) == [(0, 1, "")] and toy.flow.snapshot()["asked"] is not None
    toy.apply(0, 2)  # its continuation asks a single option in turn
    assert toy.log[3:] == [("first", "c"), ("second", "only"), "after"]
    assert toy.flow.pending() == [] and toy.flow.window_id == 1


def test_run_changes_nothing_while_a_request_or_a_sealed_window_is_open():
    for first in ("pick", "bid"):
        toy = Toy()
        opening = step(toy.pick, 0, "ask") if first == "pick" else step(toy.bid, 2, "bids")
        toy.start(opening, step(toy.note, "after"))
        before = toy.flow.snapshot()
        toy.flow.run()
        assert toy.flow.snapshot() == before and toy.log == []


def test_asking_with_no_options_is_a_value_error():
    toy = Toy()
    flow = toy.flow
    with pytest.raises(ValueError, match="at least one option"):
        flow.ask(0, Window.TURN, "pick", "", (), step(toy.picked, "x"))
    with pytest.raises(ValueError):
        flow.seal("bid", "", [ABC, ()], step(toy.bid_in, "x"))
    with pytest.raises(ValueError):
        flow.seal("bid", "", [], step(toy.bid_in, "x"))
    assert flow.window_id == 0 and flow.pending() == []


# ------------------------------------------------------------------------ sealed


def test_a_sealed_window_opens_every_seat_at_once_with_one_window_id():
    toy = Toy()
    toy.start(step(toy.single, 0, "auto"), step(toy.bid, 3, "bids"), step(toy.note, "after"))
    assert asked(toy) == [(0, 1, "bids"), (1, 1, "bids"), (2, 1, "bids")]
    assert {r.window for r in toy.flow.pending()} == {Window.SEALED}


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
def test_nothing_after_a_sealed_window_runs_until_every_seat_has_answered(order):
    toy = Toy()
    toy.start(step(toy.bid, 3, "bids"), step(toy.note, "after"))
    for number, seat in enumerate(order):
        assert "after" not in toy.log
        assert [r.seat for r in toy.flow.pending()] == sorted(order[number:])
        toy.apply(seat, seat)  # seat s bids option s
        with pytest.raises(IllegalAction):
            toy.apply(seat, 0)  # a seat answers once
    assert toy.log == [("bids", seat, "abc"[seat]) for seat in order] + ["after"]
    assert toy.flow.pending() == [] and toy.flow.window_id == 1


def test_a_sealed_window_then_the_next_request_takes_the_next_window_id():
    toy = Toy()
    toy.start(step(toy.bid, 2, "bids"), step(toy.pick, 1, "next"))
    toy.apply(1, 0)
    toy.apply(0, 0)
    assert asked(toy) == [(1, 2, "next")]


# -------------------------------------------------------------------------- polls


def offers(toy: Toy, answers: list[int]) -> list[tuple[int, str]]:
    """Answer the poll requests in turn with `answers`; the (seat, label) of each offer."""
    seen = []
    for index in answers:
        (request,) = toy.flow.pending()
        assert request.window is Window.INTERRUPT and request.optional
        seen.append((request.seat, request.prompt))
        toy.apply(request.seat, index)
    return seen


def test_a_poll_offers_the_seats_in_order_and_ends_when_all_pass():
    toy = Toy()
    toy.start(Poll((2, 0, 1), toy.offer, ("p",)), step(toy.note, "after"))
    assert offers(toy, [0, 0, 0]) == [(2, "p"), (0, "p"), (1, "p")]
    assert toy.log == ["after"] and toy.flow.pending() == [] and toy.flow.stack == []


def test_a_poll_skips_the_seats_its_offer_opens_nothing_for():
    toy = Toy(eligible=(1, 3))
    toy.start(Poll((0, 1, 2, 3), toy.offer, ("p",)), step(toy.note, "after"))
    assert offers(toy, [0, 0]) == [(1, "p"), (3, "p")]
    assert toy.log == ["after"] and toy.flow.window_id == 2


def test_a_poll_nobody_may_act_in_opens_nothing():
    toy = Toy(eligible=())
    toy.start(Poll((0, 1, 2), toy.offer, ("p",)), step(toy.note, "after"))
    assert toy.log == ["after"] and toy.flow.window_id == 0 and toy.flow.pending() == []


def test_after_an_act_the_poll_starts_over_from_its_first_seat():
    toy = Toy()
    toy.start(Poll((0, 1, 2), toy.offer, ("p",)), step(toy.note, "after"))
    assert offers(toy, [0, 1]) == [(0, "p"), (1, "p")]
    assert toy.log == [("p", 1, "act")]
    assert offers(toy, [0, 0, 1, 0, 0, 0]) == [
        (0, "p"),
        (1, "p"),
        (2, "p"),
        (0, "p"),
        (1, "p"),
        (2, "p"),
    ]
    assert toy.log == [("p", 1, "act"), ("p", 2, "act"), "after"]


def test_a_poll_ends_when_everyone_passes_after_an_act():
    toy = Toy()
    toy.start(Poll((0, 1), toy.offer, ("p",)), step(toy.note, "after"))
    assert offers(toy, [1, 1, 0, 0]) == [(0, "p"), (0, "p"), (0, "p"), (1, "p")]
    assert toy.log == [("p", 0, "act"), ("p", 0, "act"), "after"]


def test_a_reaction_to_a_reaction_is_resolved_before_the_outer_poll_resumes():
    """Seat 1 acts on the outer poll, which pushes an inner poll; seat 2 acts on that, so
    the inner poll starts over; when all pass it ends and the outer poll starts over."""
    toy = Toy()
    toy.start(Poll((0, 1, 2), toy.offer, ("outer",)), step(toy.note, "after"))
    assert offers(toy, [0, 1]) == [(0, "outer"), (1, "outer")]
    assert offers(toy, [0, 0, 1]) == [(0, "inner"), (1, "inner"), (2, "inner")]
    assert offers(toy, [0, 0, 0]) == [(0, "inner"), (1, "inner"), (2, "inner")]
    assert toy.log == [("outer", 1, "act"), ("inner", 2, "act")]
    assert offers(toy, [0, 0, 0]) == [(0, "outer"), (1, "outer"), (2, "outer")]
    assert toy.log == [("outer", 1, "act"), ("inner", 2, "act"), "after"]
    assert toy.flow.pending() == [] and toy.flow.stack == []
    assert toy.flow.window_id == 11


def test_a_pass_calls_no_continuation():
    toy = Toy()
    toy.start(Poll((0,), toy.offer, ("p",)))
    offers(toy, [0])
    assert toy.log == []


# ----------------------------------------------------------------- illegal answers


def illegal_answers_change_nothing(toy: Toy, answers) -> None:
    before, log = toy.flow.snapshot(), list(toy.log)
    for seat, index in answers:
        with pytest.raises(IllegalAction):
            toy.apply(seat, index)
        assert toy.flow.snapshot() == before and toy.log == log


BAD_INDICES = [-1, 3, True, False, "0", "a", 1.0, 0.0, None]


def test_an_illegal_answer_raises_and_changes_nothing():
    toy = Toy()
    toy.start(step(toy.pick, 1, "turn"), step(toy.note, "after"))
    illegal_answers_change_nothing(
        toy, [(0, 0), (2, 0), (-1, 0), *((1, index) for index in BAD_INDICES)]
    )
    toy.apply(1, 2)
    assert toy.log == [("turn", "c"), "after"]


def test_an_illegal_answer_in_a_sealed_window_or_a_poll_changes_nothing():
    toy = Toy()
    toy.start(step(toy.bid, 2, "bids"), Poll((0, 1), toy.offer, ("p",)))
    toy.apply(0, 1)
    illegal_answers_change_nothing(toy, [(0, 0), (2, 0), *((1, i) for i in BAD_INDICES)])
    toy.apply(1, 0)
    illegal_answers_change_nothing(toy, [(1, 0), (0, 2), (0, -1), (0, True), (0, 1.0)])


def test_an_int_subclass_naming_an_option_is_accepted():
    class Index(int):
        pass

    toy = Toy()
    toy.start(step(toy.pick, 0, "turn"))
    toy.apply(0, Index(2))
    assert toy.log == [("turn", "c")]
    toy = Toy()
    toy.start(step(toy.pick, 0, "turn"))
    illegal_answers_change_nothing(toy, [(0, Index(3)), (0, Index(-1))])


def test_nothing_open_means_every_answer_is_illegal():
    toy = Toy()
    toy.start(step(toy.note, "only"))
    illegal_answers_change_nothing(toy, [(0, 0), (1, 0)])


# ------------------------------------------------------------ copies and snapshots


def test_a_copy_is_independent_of_its_original():
    toy = Toy()
    toy.start(
        step(toy.pick, 0, "first"),
        Poll((0, 1), toy.offer, ("p",)),
        step(toy.bid, 2, "bids"),
        step(toy.note, "after"),
    )
    copy = Toy()
    copy.flow, copy.log = toy.flow.copy((toy, copy)), list(toy.log)
    before = toy.flow.snapshot()
    assert copy.flow.snapshot() == before
    copy.apply(0, 1)
    offers(copy, [1, 0, 0])
    copy.apply(1, 0)
    copy.apply(0, 2)
    assert copy.log == [
        ("first", "b"),
        ("p", 0, "act"),
        ("bids", 1, "a"),
        ("bids", 0, "c"),
        "after",
    ]
    assert toy.flow.snapshot() == before and toy.log == []
    assert asked(toy) == [(0, 1, "first")]


def test_a_copy_plays_on_exactly_as_its_original():
    toy = Toy()
    toy.start(step(toy.pick, 0, "first"), Poll((0, 1), toy.offer, ("p",)), step(toy.bid, 2, "bids"))
    toy.apply(0, 0)
    copy = Toy()
    copy.flow, copy.log = toy.flow.copy((toy, copy)), list(toy.log)
    for game in (toy, copy):
        offers(game, [1, 0, 1, 0, 0])
        game.apply(0, 0)
        game.apply(1, 1)
    assert copy.log == toy.log and copy.flow.snapshot() == toy.flow.snapshot()


def test_a_snapshot_is_plain_json():
    toy = Toy()
    toy.start(
        step(toy.branch, 1),
        Poll((0, 1), toy.offer, ("p",)),
        step(toy.bid, 2, "bids"),
        step(toy.note, "after"),
    )
    states = [toy.flow.snapshot()]
    toy.apply(1, 0)
    states.append(toy.flow.snapshot())  # a poll on the stack, its request open
    offers(toy, [0, 0])
    toy.apply(1, 1)
    states.append(toy.flow.snapshot())  # one sealed request left
    for snapshot in states:
        assert json.loads(json.dumps(snapshot, allow_nan=False)) == snapshot
    assert states[0]["asked"]["then"] == [
        ["picked", ["step 1"]],
        ["picked", ["step 2"]],
        ["picked", ["step 3"]],
    ]
    assert states[1]["stack"][-1] == ["poll", [0, 1], "offer", ["p"], 1]
    assert [ask["request"]["seat"] for ask in states[2]["sealed"]] == [0]
    assert states[2]["sealed"][0]["request"]["window"] == "SEALED"


def test_a_snapshot_tells_apart_flows_that_differ():
    first, second = Toy(), Toy()
    first.start(step(first.pick, 0, "x"))
    second.start(step(second.pick, 1, "x"))
    assert first.flow.snapshot() != second.flow.snapshot()


def test_stop_clears_everything_but_the_window_count():
    toy = Toy()
    toy.start(step(toy.pick, 0, "first"), step(toy.note, "never"))
    toy.flow.stop()
    assert toy.flow.pending() == []
    assert toy.flow.snapshot() == {"stack": [], "asked": None, "sealed": [], "window_id": 1}
    toy.flow.run()
    assert toy.log == []
    illegal_answers_change_nothing(toy, [(0, 0)])


def test_a_stopped_flow_holds_nothing_of_its_game():
    """`stop` drops what the answers would have called (a SEALED window's and a request's
    steps, bound to the game), so a finished game is freed as soon as it is dropped,
    without waiting for the garbage collector."""
    toy = Toy()
    toy.start(step(toy.bid, 2, "bids"), step(toy.pick, 0, "then"))
    toy.apply(0, 0)
    toy.apply(1, 0)
    assert [request.kind for request in toy.flow.pending()] == ["pick"]
    toy.flow.stop()
    gone = weakref.ref(toy)
    gc.disable()
    try:
        del toy
        assert gone() is None
    finally:
        gc.enable()


def test_stop_during_a_sealed_window_closes_the_other_seats():
    class Ending(Toy):
        def bid_in(self, option, label, seat):
            super().bid_in(option, label, seat)
            self.flow.stop()

    toy = Ending()
    toy.start(step(toy.bid, 3, "bids"), step(toy.note, "never"))
    toy.apply(1, 0)
    assert toy.flow.pending() == [] and toy.log == [("bids", 1, "a")]
    illegal_answers_change_nothing(toy, [(0, 0), (2, 0)])


def test_an_act_may_ask_a_follow_up_before_the_poll_starts_over():
    class FollowUp(Toy):
        def reacted(self, option, label, seat):
            super().reacted(option, label, seat)
            self.flow.ask(seat, Window.INTERRUPT, "which", "which", ABC, step(self.picked, "which"))

    toy = FollowUp()
    toy.start(Poll((0, 1), toy.offer, ("p",)), step(toy.note, "after"))
    assert offers(toy, [0, 1]) == [(0, "p"), (1, "p")]
    assert asked(toy) == [(1, 3, "which")]
    toy.apply(1, 1)
    assert offers(toy, [0, 0]) == [(0, "p"), (1, "p")]
    assert toy.log == [("p", 1, "act"), ("which", "b"), "after"]


def test_a_copy_calls_the_copies_of_the_owners_it_is_given():
    toy = Toy()
    toy.start(step(toy.pick, 0, "first"), Poll((0, 1), toy.offer, ("p",)), step(toy.note, "x"))
    copy = Toy()
    copy.flow = toy.flow.copy((toy, copy))
    copy.apply(0, 1)
    offers(copy, [1, 0, 0])
    assert copy.log == [("first", "b"), ("p", 0, "act"), "x"] and toy.log == []
    with pytest.raises(ValueError, match=r"Toy\.\w+: its owner was not given to Flow\.copy"):
        toy.flow.copy()
