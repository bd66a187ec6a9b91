"""The shared pieces of the engine contract."""

import itertools
import shutil
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

import admiralty.games as games
from admiralty.games import Event, Outcome, load_game
from admiralty.games.base import Option, Request, Window, source_hash
from admiralty.games.flow import Flow, step


def test_outcome_ties_share_a_place_and_the_next_place_is_skipped():
    outcome = Outcome.from_ranking([(10, 3), (12, 0), (10, 3), (9, 9)], [10, 12, 10, 9])
    assert outcome.places == (2, 1, 2, 4)


def test_public_events_reach_everyone_private_ones_only_their_audience():
    public = Event("dice_rolled", {"dice": [3, 5]})
    private = Event("hand_drawn", {"cards": [1, 2]}, audience=frozenset({2}))
    assert public.visible_to(None) and public.visible_to(0)
    assert private.visible_to(2)
    assert not private.visible_to(0)
    assert not private.visible_to(None)


def test_unknown_game_names_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown game 'chess'; known games: .*jamaica"):
        load_game("chess")


# The flow builds the engines' events and requests from a tuple of their fields, not through
# the named tuples' `__new__`: what it builds must be exactly what the constructor builds,
# every field set, so that a field added to `Event` or `Request` cannot be left unset.

OPTIONS = (Option("a", "A"), Option("b", "B", {"n": 1}))


def test_the_flow_tells_the_events_the_constructor_builds():
    flow = Flow()
    flow.emit("moved", {"ship": 1})
    flow.tell((2,), "card_chosen", {"seat": 2, "card": 7}, {"seat": 2})
    assert flow.events == [
        Event("moved", {"ship": 1}),
        Event("card_chosen", {"seat": 2, "card": 7}, frozenset({2})),
        Event("card_chosen", {"seat": 2}),
    ]
    assert [repr(made) for made in flow.events] == [
        repr(Event("moved", {"ship": 1})),
        repr(Event("card_chosen", {"seat": 2, "card": 7}, frozenset({2}))),
        repr(Event("card_chosen", {"seat": 2})),
    ]


def test_the_flow_opens_the_requests_the_constructor_builds():
    for optional, publish in itertools.product((False, True), repeat=2):
        flow = Flow()
        flow.ask(
            3,
            Window.INTERRUPT,
            "react",
            "React?",
            OPTIONS,
            step(print),
            optional=optional,
            publish=publish,
        )
        (made,) = flow.pending()
        built = Request(
            3, 1, Window.INTERRUPT, "react", "React?", OPTIONS, optional, must_ask=publish
        )
        assert made == built and repr(made) == repr(built)
        assert {f: getattr(made, f) for f in Request._fields} == {
            "seat": 3,
            "window_id": 1,
            "window": Window.INTERRUPT,
            "kind": "react",
            "prompt": "React?",
            "options": OPTIONS,
            "optional": optional,
            "default": 0,
            "must_ask": publish,
        }


def test_requests_options_and_events_are_immutable():
    for value, name in (
        (Request(0, 1, Window.TURN, "k", "p", OPTIONS), "seat"),
        (OPTIONS[0], "key"),
        (Event("moved"), "kind"),
    ):
        with pytest.raises((FrozenInstanceError, AttributeError)):
            setattr(value, name, None)


def test_the_rules_hash_covers_the_game_and_the_kit_it_runs_on(tmp_path):
    """A record replays only on the code that made it: the hash moves with the game's own
    source and data and with the shared flow and chance streams, not with another game."""
    kit = tmp_path / "games"
    shutil.copytree(Path(games.__file__).parent, kit, ignore=shutil.ignore_patterns("__pycache__"))
    jamaica = kit / "jamaica"
    first = source_hash(jamaica, kit)
    assert first == load_game("jamaica").rules_hash()

    def edited(path: Path) -> str:
        path.write_text(path.read_text() + "\n# edited\n")
        return source_hash(jamaica, kit)

    assert edited(kit / "black_fleet" / "state.py") == first
    after_kit = edited(kit / "chance.py")
    assert after_kit != first
    assert edited(jamaica / "data" / "cards.toml") not in (first, after_kit)
