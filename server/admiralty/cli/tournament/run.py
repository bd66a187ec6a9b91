"""`admiralty tournament run` and `resume`: a tournament planned, stored and played, under a
live leaderboard."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from admiralty.cli.options import (
    BotsOption,
    BotUserOption,
    DeadlineOption,
    GameArgument,
    GameOptionsOption,
    JsonOption,
    PolicyOption,
    SandboxOption,
    TimeBankOption,
    parse_options,
    within,
)
from admiralty.cli.output import UsageError, err, usage
from admiralty.cli.tournament.stored import DbOption, print_tournament, tournament_errors
from admiralty.console.tournaments import RunBoard
from admiralty.referee import FailurePolicy
from admiralty.referee.launcher import STARTUP_TIMEOUT, Isolation
from admiralty.tournament import (
    Deals,
    Runner,
    Settings,
    Store,
    StoreError,
    default_players,
    new_tournament,
    resume_tournament,
    start_tournament,
)
from admiralty.tournament.adaptive import Schedule
from admiralty.tournament.backend import BackendName, make_backend
from admiralty.tournament.runner import LiveLeaderboard

ParallelOption = Annotated[
    int | None,
    typer.Option(
        help="Matches played at once (default: the cores; with --backend ray, the cluster's CPUs).",
        min=1,
        show_default=False,
    ),
]
BackendOption = Annotated[
    BackendName,
    typer.Option(
        help="Where matches are refereed: local (worker processes of this machine) "
        "or ray (Ray tasks across a cluster, needs pip install 'admiralty[ray]'; "
        "see docs/cluster.md). Results are the same either way."
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        help="With --backend ray, the cluster to join: ray://HOST:PORT (Ray "
        "Client), HOST:PORT of its head, or auto (the cluster this machine is "
        "part of). Default: start Ray on this machine for the run.",
        show_default=False,
    ),
]
TournamentStartupOption = Annotated[
    float,
    typer.Option(
        "--startup-timeout",
        help="Seconds a bot has to answer Hello: once launched, and again when "
        "each referee (worker process or Ray task's process) reaches it (0.1 to "
        "86400).",
        callback=within(0.1),
        metavar="SECONDS",
    ),
]


def tournament_run(
    game: GameArgument,
    bot: BotsOption,
    players: Annotated[
        int | None,
        typer.Option(
            help="Seats per match; default: the game's usual count, clamped to the "
            "pool. 1: each bot plays alone against the game's automated opponent "
            "(Blackbeard solitaire), every bot on the same deal each round.",
            min=1,
        ),
    ] = None,
    rounds: Annotated[
        int,
        typer.Option(
            help="Rounds; each plays every group of --players bots (or, with "
            "--matches-per-bot, a sample of groups) in each of its seat "
            "rotations, in a cyclic order chosen so every bot sits before and "
            "after every other as evenly as the groups allow (with one seat: "
            "one deal, played by every bot).",
            min=1,
        ),
    ] = 1,
    matches_per_bot: Annotated[
        int | None,
        typer.Option(
            help="For a large pool: instead of every group, each round samples groups so "
            "that every bot plays exactly this many matches and every two bots meet as "
            "evenly as possible. A group plays its --players seat rotations, so this must "
            "be a multiple of --players and, times the number of bots, of --players "
            "squared; the error says which values work.",
            min=1,
            show_default=False,
        ),
    ] = None,
    schedule: Annotated[
        Schedule,
        typer.Option(
            help="full: play the whole balanced plan. adaptive: play it as a first block "
            "(--rounds rounds, or --matches-per-bot sampled), then block after block the "
            "groups that inform the ranking most (bots next to each other in the standings "
            "whose order is least certain), each block chosen from the results before it and "
            "stored before it is played, until every neighbouring pair of the --top bots is "
            "ordered with P >= --confidence by the ratings, or --max-matches is reached; "
            "its leaderboard is then sorted by mu, the order the rule certifies. Not for "
            "one-seat games.",
        ),
    ] = Schedule.FULL,
    confidence: Annotated[
        float,
        typer.Option(
            help="Adaptive: stop when, for each pair of bots next to each other "
            "in the standings (by mu) among the --top, P(the upper is stronger) "
            "= Phi(gap in mu / sqrt(sigma1^2 + sigma2^2)) is at least this."
        ),
    ] = 0.9,
    top: Annotated[
        int | None,
        typer.Option(
            help="Adaptive: how many of the top bots must be ordered (with fewer "
            "than all, also the last of them against the next); default all.",
            min=1,
            show_default=False,
        ),
    ] = None,
    max_matches: Annotated[
        int | None,
        typer.Option(
            help="Adaptive: the most matches to plan in all, first block "
            "included; default 10 times the first block.",
            min=1,
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Master seed, to repeat a tournament exactly. Omitted, a 128-bit seed comes "
            "from a secure source (`tournament show --json` prints it). A seed a person types "
            "can be guessed by anyone who knows it, and with it every deal."
        ),
    ] = None,
    deals: Annotated[
        Deals | None,
        typer.Option(
            help="fresh (the default): every match is dealt anew. duplicate: the seat "
            "rotations of a group (in a round) replay one deal, which cancels the luck of "
            "the deal but lets a bot that remembers learn its opponents' cards; only for "
            "evaluating trusted bots. A one-seat tournament is always duplicate: every bot "
            "plays the round's deal.",
            show_default=False,
        ),
    ] = None,
    parallel: ParallelOption = None,
    backend: BackendOption = BackendName.LOCAL,
    address: AddressOption = None,
    startup_timeout: TournamentStartupOption = STARTUP_TIMEOUT,
    bot_user: BotUserOption = None,
    sandbox: SandboxOption = False,
    db: DbOption = Path("admiralty.db"),
    name: Annotated[
        str | None,
        typer.Option(help="The tournament's name; default GAME-<6 random hex digits>."),
    ] = None,
    policy: PolicyOption = FailurePolicy.DEFAULT,
    deadline: DeadlineOption = 2.0,
    time_bank: TimeBankOption = 60.0,
    rating: Annotated[
        str, typer.Option(help="trueskill, or openskill if installed.")
    ] = "trueskill",
    tau: Annotated[
        float,
        typer.Option(
            help="Skill drift added to every sigma before each match: 0, "
            "since a bot is the same program in every match; the rating "
            "libraries' default for people is 25/300 = 0.0833."
        ),
    ] = 0.0,
    option: GameOptionsOption = [],  # noqa: B006
    records: Annotated[Path, typer.Option(help="Directory for match records.")] = Path("records"),
    as_json: JsonOption = False,
) -> None:
    """Plan a round-robin tournament, launch the bots, store the plan, play it and print
    the leaderboard. The plan holds every K-subset of bots, or with --matches-per-bot a
    balanced sample of them, each in every seat rotation of a balanced cyclic order (see
    docs/tournaments.md). The order of --bot does not matter: the bots are entered in the order of
    their specs (sorted), so the same bots and --seed give the same plan and leaderboard
    however they are listed; a bot entered twice needs other arguments (e.g. --seed).
    Nothing is stored unless every setting is valid, the records can be written, and every
    bot starts and plays the game. With --players 1 (a one-seat game, e.g. Blackbeard
    solitaire) every bot
    plays alone against the game's automated opponent, all of them on the same deal in each
    round; the score is the margin over the opponent (0 or more wins), and the leaderboard
    ranks by mean margin with a 95% t-interval over the deals, the paired gap to the bot
    ranked above on the deals both played, and the win rate (TrueSkill does not apply)."""
    name = name or f"{game}-{secrets.token_hex(3)}"
    try:
        if deals is Deals.FRESH and _seats(game, bot, players) == 1:
            raise UsageError(
                "a one-seat tournament plays every bot on the same deals: leave out --deals fresh"
            )
        settings = Settings(
            policy=policy.value,
            deadline=deadline,
            time_bank=time_bank,
            rating=rating,
            tau=tau,
            options=parse_options(option),
            records=str(records),
            deals=(deals or Deals.FRESH).value,
            matches_per_bot=matches_per_bot,
            schedule=schedule.value,
            confidence=confidence,
            top=top,
            max_matches=max_matches,
        )
        if schedule is Schedule.FULL and (top, max_matches, confidence) != (None, None, 0.9):
            raise UsageError("--confidence, --top and --max-matches are for --schedule adaptive")
        seed = secrets.randbits(128) if seed is None else seed
        tournament, plan = new_tournament(name, game, bot, players, rounds, seed, settings)
        referees = make_backend(backend, address, startup_timeout, Isolation(bot_user, sandbox))
    except (UsageError, ValueError) as error:
        raise usage(str(error)) from None
    runner = Runner.this_process(datetime.now(UTC))
    with tournament_errors():
        store = Store(db, create=True)
        _play_tournament(
            store,
            name,
            len(plan),
            as_json,
            lambda on_result: start_tournament(
                store, tournament, plan, runner, parallel, on_result, referees
            ),
        )


def _seats(game: str, bots: list[str], players: int | None) -> int:
    """The seats a tournament will have: --players, else the game's usual count."""
    return default_players(game, len(bots)) if players is None else players


def tournament_resume(
    name: Annotated[str, typer.Argument(help="The tournament to finish.")],
    db: DbOption = Path("admiralty.db"),
    parallel: ParallelOption = None,
    backend: BackendOption = BackendName.LOCAL,
    address: AddressOption = None,
    startup_timeout: TournamentStartupOption = STARTUP_TIMEOUT,
    bot_user: BotUserOption = None,
    sandbox: SandboxOption = False,
    as_json: JsonOption = False,
) -> None:
    """Finish a stopped tournament: every planned match without a result is played (an
    adaptive one then goes on choosing blocks until its stop rule, exactly as if it had not
    stopped). One process at a time runs a tournament; a runner that died leaves a lease
    that is taken over. The bots are launched as this command says: give --sandbox and
    --bot-user again if the run had them."""
    try:
        referees = make_backend(backend, address, startup_timeout, Isolation(bot_user, sandbox))
    except ValueError as error:
        raise usage(str(error)) from None
    runner = Runner.this_process(datetime.now(UTC))
    with tournament_errors():
        store = Store(db)
        store.tournament(name)  # one line if there is no such tournament
        planned = len(store.plan(name))
        _play_tournament(
            store,
            name,
            planned,
            as_json,
            lambda on_result: resume_tournament(store, name, runner, parallel, on_result, referees),
        )


def _play_tournament(
    store: Store,
    name: str,
    planned: int,
    as_json: bool,
    play: Callable[[Callable], Coroutine],
) -> None:
    """Run `play(on_result)` with a live leaderboard, then print the final one."""
    board = RunBoard(err, name, planned, len(store.results(name)), hidden=as_json)
    live: list[LiveLeaderboard] = []  # built at the first result: the tournament is stored

    def on_result(match) -> None:
        board.played(lambda: len(store.plan(name)))
        if as_json:
            return
        if live:
            live[0].add(match)  # one result read and one rating update, not a recompute
        else:
            live.append(LiveLeaderboard(store, name))
        board.show(live[0])

    try:
        with contextlib.nullcontext() if as_json else board.live:
            asyncio.run(play(on_result))
    except KeyboardInterrupt:
        err.print(_stopped(store, name, planned), highlight=False)
        raise typer.Exit(code=130) from None
    print_tournament(store, name, as_json)


def _stopped(store: Store, name: str, planned: int) -> str:
    try:
        store.tournament(name)
    except StoreError:
        return "stopped before the tournament was stored: nothing was kept"
    done = len(store.results(name))
    return (
        f"stopped: {done} of {planned} matches finished and kept; "
        f"continue with `admiralty tournament resume {name}`"
    )
