"""Each game's `GameInfo` against what its engine does, its option specs as the one gate
for options, and `admiralty games` showing them."""

from __future__ import annotations

import json

import pytest
from random_play import play, player_counts
from typer.testing import CliRunner

from admiralty.cli import app
from admiralty.games import GAMES, OptionSpec, load_game

SPECS = [(game, spec) for game in GAMES for spec in load_game(game).info.options]
IDS = [f"{game}-{spec.name}" for game, spec in SPECS]


def info_of(game: str):
    return load_game(game).info


@pytest.mark.parametrize("game", GAMES)
def test_the_info_is_consistent_and_plain_json(game):
    info = info_of(game)
    assert info.name == game and info.title and info.summary
    assert info.min_players <= info.default_players <= info.max_players
    assert len(set(info.windows)) == len(info.windows) > 0
    assert len({spec.name for spec in info.options}) == len(info.options)
    assert all(set(actor.players) <= set(player_counts(game)) for actor in info.automated)
    assert json.loads(json.dumps(info.to_json())) == info.to_json()


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_player_count_is_playable_and_no_other(game):
    engine, info = load_game(game), info_of(game)
    for players in player_counts(game):
        assert engine.new_game(players, 1).players == players
    for players in (info.min_players - 1, info.max_players + 1):
        with pytest.raises(
            ValueError,
            match=f"played by {info.min_players} to {info.max_players} players, not {players}",
        ):
            engine.new_game(players, 1)


@pytest.mark.parametrize("game", GAMES)
def test_random_play_opens_exactly_the_declared_window_kinds(game):
    seen = {
        request.window
        for players in player_counts(game)
        for seed in (1, 2)
        for step in play(game, players, seed)
        for request in step.state.pending()
    }
    assert seen == set(info_of(game).windows)


@pytest.mark.parametrize("game", GAMES)
def test_views_differ_by_seat_exactly_when_information_is_hidden(game):
    """With hidden information, some position shows every seat a different view (its own
    secrets); without, every seat always sees the same."""
    players = info_of(game).default_players
    sizes = {
        len({_without_viewer(step.state.view(seat)) for seat in range(players)})
        for step in play(game, players, seed=3)
    }
    assert max(sizes) == (players if info_of(game).hidden_information else 1)


@pytest.mark.parametrize("game", GAMES)
def test_the_defaults_are_accepted_and_are_what_no_options_mean(game):
    engine, info = load_game(game), info_of(game)
    players = info.default_players
    assert engine.resolve_options(None) == engine.resolve_options(info.defaults())
    assert engine.resolve_options({}, players) == info.defaults()
    assert (
        engine.new_game(players, 1, info.defaults()).digest()
        == engine.new_game(players, 1).digest()
    )


@pytest.mark.parametrize(("game", "spec"), SPECS, ids=IDS)
def test_every_value_an_option_takes_starts_a_game(game, spec):
    engine = load_game(game)
    for players in player_counts(game):
        for value in _good_values(spec, players):
            assert engine.resolve_options({spec.name: value}, players)[spec.name] == value
            engine.new_game(players, 1, {spec.name: value})


@pytest.mark.parametrize(("game", "spec"), SPECS, ids=IDS)
def test_a_wrong_type_or_out_of_range_value_is_refused_naming_the_option(game, spec):
    engine = load_game(game)
    players = engine.info.default_players
    for value in _bad_values(spec, players):
        message = f"{game} option {spec.name} takes {spec.takes()}, got {json.dumps(value)}"
        with pytest.raises(ValueError) as refused:
            engine.new_game(players, 1, {spec.name: value})
        assert str(refused.value) == message


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_option_is_refused_naming_the_known_ones(game):
    known = ", ".join(sorted(spec.name for spec in info_of(game).options))
    with pytest.raises(ValueError) as refused:
        load_game(game).new_game(info_of(game).default_players, 1, {"sails": 3})
    assert str(refused.value) == f"unknown {game} option(s) ['sails']; known: {known}"


def test_a_round_cap_is_bounded_so_every_game_ends():
    for game in GAMES:
        (cap,) = [spec for spec in info_of(game).options if spec.name == "round_cap"]
        assert cap.bounds == (1, 1000)


@pytest.mark.parametrize("kind", [int, str, float])
def test_an_option_is_a_bool_or_a_bounded_int(kind):
    """An int with no range could make a game endless; other types have no checks yet."""
    with pytest.raises(TypeError, match="option n: a bool, or an int with bounds or choices"):
        OptionSpec("n", kind, 1, "a number")
    assert OptionSpec("n", int, 1, "a number", bounds=(0, 9)).accepts(9, None)


def test_admiralty_games_is_one_line_a_game_within_80_by_24():
    result = CliRunner().invoke(app, ["games"])  # the console is 80 columns off a terminal
    lines = result.stdout.splitlines()
    assert result.exit_code == 0
    assert len(lines) <= 24 and max(map(len, lines)) <= 80
    for info in map(info_of, GAMES):
        (line,) = [line for line in lines if line.startswith(f"{info.name} ")]
        assert line.split() == [
            info.name,
            f"{info.min_players}-{info.max_players}",
            *info.summary.split(),
        ]


@pytest.mark.parametrize("game", GAMES)
def test_admiralty_games_game_prints_its_info_with_every_citation_whole(game):
    result = CliRunner().invoke(app, ["games", game])
    text = " ".join(result.stdout.split())  # as one line, however the console wrapped it
    info = info_of(game)
    assert result.exit_code == 0
    assert text.startswith(
        f"{game} ({info.title}): {info.summary} {info.min_players}-"
        f"{info.max_players} players, usually {info.default_players}; "
        f"hidden information; windows {', '.join(info.windows)}"
    )
    for actor in info.automated:
        players = "/".join(map(str, actor.players))
        assert (
            f"automated: {actor.name}, in {players}-player games; decided by "
            f"{actor.decided_by}" in text
        )  # e.g. "... [jamaica G25]"
    for spec in info.options:
        assert (
            f"{spec.name} = {json.dumps(spec.default)} ({spec.takes()}) "
            f"{' '.join(spec.help.split())}" in text
        )  # e.g. "[jamaica G6] a load may ..."


def test_admiralty_games_of_an_unknown_game_is_one_line_naming_the_games():
    result = CliRunner().invoke(app, ["games", "chess"])
    assert (result.exit_code, result.output) == (
        2,
        f"error: unknown game 'chess'; known games: {', '.join(GAMES)}\n",
    )


@pytest.mark.parametrize("args", [[], ["jamaica"]])
def test_admiralty_games_json_is_the_game_infos(args):
    result = CliRunner().invoke(app, ["games", *args, "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"games": [info_of(g).to_json() for g in args or GAMES]}


def _without_viewer(view: dict) -> str:
    return json.dumps({k: v for k, v in view.items() if k != "viewer"}, sort_keys=True)


def _good_values(spec: OptionSpec, players: int) -> list:
    """Both ends of a range, every choice, and per seat a list of the choices."""
    values = [*spec.choices, *(spec.bounds or ())] or [True, False]
    if spec.per_seat:
        values.append([spec.choices[seat % len(spec.choices)] for seat in range(players)])
    return values


def _bad_values(spec: OptionSpec, players: int) -> list:
    """Wrong JSON types, values just out of range, not a choice, per-seat lists that are
    empty, of the wrong length or hold a wrong value."""
    if spec.type is bool:
        return [1, 0, "yes", None, [True], *([not spec.default] if spec.choices else [])]
    values = [True, "abc", 1e9, 2.0, None, {"n": 1}]
    if spec.bounds:
        values += [spec.bounds[0] - 1, spec.bounds[1] + 1]
    if spec.choices and spec.type is str:
        values += ["".join(spec.choices) + "?", 1]  # not a choice; not a string
    elif spec.choices:
        values += [max(spec.choices) + 1, min(spec.choices) - 1]
    if spec.per_seat:
        values += [[], [spec.default] * (players + 1), [spec.default] * (players - 1) + ["x"]]
    return values
