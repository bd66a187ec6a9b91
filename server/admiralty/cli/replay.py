"""`admiralty replay`: a recorded match shown again, under keys or not, or verified."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from admiralty.cli.display import Display
from admiralty.cli.options import LegendOption, SeatViewOption, within
from admiralty.cli.output import err, fail, out, usage
from admiralty.console import interactive
from admiralty.console.feeds import replay_screen
from admiralty.games import IllegalAction
from admiralty.referee import verify_record
from admiralty.referee.record import RecordError, ReplayReport
from admiralty.referee.timeline import NoSuchSeat, read_timeline

PAGES = (".html", ".htm")
"""Export suffixes that write the web viewer's page rather than the console's."""


def replay(
    record: Annotated[Path, typer.Argument(help="A match record (.jsonl.gz).")],
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Only re-run the engine and check every event and digest; "
            "exit 1 on any difference.",
        ),
    ] = False,
    speed: Annotated[
        float,
        typer.Option(
            help="Steps that add to the log shown per second (the pace of "
            "`play --watch --delay 1/SPEED`); 0 shows the end at once.",
            callback=within(0, 1e6),
        ),
    ] = 20.0,
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help="On a terminal, the interactive replay (paused at "
            "the setup); off one, the transcript as without it.",
        ),
    ] = False,
    interactive_: Annotated[
        bool,
        typer.Option(
            "--interactive",
            "-i",
            help="Replay under keys: space play/pause, "
            "→/n and ←/p a step, g N Enter a round, s N Enter a step, d the "
            "seat's next decision, i the next incident, l the legend, q quit.",
        ),
    ] = False,
    seat: SeatViewOption = None,
    legend: LegendOption = False,
    export_to: Annotated[
        Path | None,
        typer.Option(
            "--export",
            help="Write the match to this file: .html (or .htm) the web replay viewer, "
            "one self-contained page holding every step (the board, the log, --seat's "
            "requests and answers) that opens in a browser with no network; .svg the "
            "final screen, the legend and the whole log. Without --interactive, only the "
            "file is written.",
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Show a recorded match as a spectator saw it (or as --seat saw it), or --verify it.
    A record cut short (an interrupted match, a killed referee) is shown up to where it
    ends. Off a terminal, print the whole log and the result. With --export (and without
    --interactive), only write the file."""
    if not record.is_file():
        raise usage(f"no such record: {record}")
    Display(seat, legend, export_to).check()
    page = export_to if export_to is not None and export_to.suffix.lower() in PAGES else None
    display = Display(seat, legend, None if page is not None else export_to)
    terminal = out.is_terminal and os.isatty(0)
    if interactive_ and not terminal:
        raise usage(
            "--interactive reads keys and draws on a terminal; this is not one "
            "(without it, the replay is written as text)"
        )
    try:
        if not verify:
            _replay(record, display, speed, (step or interactive_) and terminal, page)
            return
        report = verify_record(record)
    except NoSuchSeat as error:
        raise usage(str(error)) from None
    except RecordError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{record}: cannot read it: {error.strerror or error}") from None
    except (ValueError, KeyError, TypeError, IllegalAction) as error:
        raise fail(f"{record}: not a readable match record ({error})") from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None
    for mismatch in report.mismatches:
        err.print(f"mismatch: {mismatch}", highlight=False)
    out.print(
        f"{report.header['game']} seed {report.header['seed']}: {report.steps} decisions, "
        f"{report.digests_checked} digests checked, {_verdict(report)}",
        highlight=False,
        soft_wrap=True,
    )
    if not report.ok:
        raise typer.Exit(code=1)


def _replay(record: Path, display: Display, speed: float, keys: bool, page: Path | None) -> None:
    """The replay: under keys, paced on a terminal, or as a transcript; with an export and
    no keys, the export only (the end is computed, not played)."""
    delay = 1 / speed if speed else 0.0
    if keys:
        timeline = read_timeline(record, display.seat)
        display.finish(interactive.run(timeline, out, delay, display.legend))
    elif display.export is not None:
        display.save(replay_screen(record, None, display.seat, legend=display.legend))
    elif page is None:
        display.finish(replay_screen(record, out, display.seat, delay, legend=display.legend))
    if page is not None:
        _write_page(record, display.seat, page)


def _write_page(record: Path, seat: int | None, page: Path) -> None:
    """The web viewer's self-contained page of the record (needs the web extra's jinja2)."""
    try:
        from admiralty.web.export import write_export
    except ImportError:
        raise usage(
            f"--export {page}: the web viewer needs the web extra: pip install 'admiralty[web]'"
        ) from None
    try:
        write_export(record, seat, page)
    except OSError as error:
        if error.filename == str(page):
            raise fail(f"cannot write {page}: {error.strerror}") from None
        raise
    out.print(f"exported: {page}", highlight=False, soft_wrap=True)


def _verdict(report: ReplayReport) -> str:
    if report.mismatches:
        return f"{len(report.mismatches)} mismatches"
    if not report.complete:
        return f"incomplete: no result ({report.ending})"
    return "OK"
