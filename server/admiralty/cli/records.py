"""`admiralty records`: match records put to other uses; `export` makes a learning
dataset of one seat's decisions (`admiralty.research.dataset`)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from admiralty.cli.options import JsonOption
from admiralty.cli.output import fail, out, usage
from admiralty.cli.plain_help import Typer
from admiralty.games import IllegalAction
from admiralty.referee.record import RecordError
from admiralty.referee.timeline import NoSuchSeat

records_app = Typer(
    help="Match records put to other uses: a learning dataset of one seat's decisions.",
    no_args_is_help=True,
)


@records_app.command("export")
def records_export(
    records: Annotated[list[Path], typer.Argument(help="Match records (.jsonl.gz), one game.")],
    seat: Annotated[int, typer.Option(help="The seat whose decisions (and view) to export.")],
    out_path: Annotated[
        Path,
        typer.Option(
            "--out", help="The dataset: .npz (needs numpy) or .parquet (needs pyarrow too)."
        ),
    ],
    as_json: JsonOption = False,
) -> None:
    """One row per decision the seat's bot made: the observation and action mask it had
    (the research environments' encoding, from its own view only), the option it chose,
    the reward after it (the final one on its last decision), and the record and step.
    Prints the rows made per CPU second, and the CPU time writing the file took."""
    if out_path.suffix not in (".npz", ".parquet"):
        raise usage(f"--out {out_path}: write .npz or .parquet")
    try:
        from admiralty.research import dataset

        started = time.process_time()
        rows = dataset.export(records, seat)
        built = time.process_time() - started
        dataset.save(rows, out_path)
        written = time.process_time() - started - built
    except ImportError as error:
        raise fail(str(error)) from None
    except (RecordError, NoSuchSeat, IllegalAction, OSError) as error:
        raise fail(str(error)) from None
    summary = {
        "game": rows.game,
        "seat": seat,
        "records": len(records),
        "rows": len(rows),
        "cpu_seconds": round(built, 3),
        "rows_per_s": round(len(rows) / built, 1) if built else None,
        "write_cpu_seconds": round(written, 3),
        "out": str(out_path),
    }
    if as_json:
        print(json.dumps(summary))
    else:
        out.print(
            f"{len(rows)} rows of seat {seat} from {len(records)} {rows.game} records "
            f"({summary['rows_per_s']} rows/s) -> {out_path}",
            highlight=False,
            soft_wrap=True,
        )
