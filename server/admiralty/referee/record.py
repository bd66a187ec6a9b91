"""Match records: gzip JSON lines that let any match be re-run and checked.

Line kinds (`"t"`): `header` (version, rules hash, game, options, seed, seats, match id and
the id the bots were sent), `decision` (step, request id, seat, window, option index,
latency), `event` (step, the unredacted event), `digest` (step, state digest), then either
`result` (places, scores, forfeits, incidents) or, for a match cut short, `aborted` (step).
A record is omniscient: it is the operator's, created readable by its owner only, and never
sent to a seat.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from admiralty import __version__
from admiralty.games import Event, IllegalAction, load_game


def private_dir(path: Path) -> None:
    """Create the directory `path`, and every missing directory above it, readable by the
    operator only: records show every hand. (`mkdir(parents=True)` would give the parents,
    `--records` itself among them, the default mode.)"""
    for directory in reversed([path, *path.parents]):
        if not directory.is_dir():
            directory.mkdir(mode=0o700, exist_ok=True)


def open_private(path: Path) -> BinaryIO:
    """`path` opened for writing, readable by the operator only (its directory too, and a
    file that was there made so): a record shows every hand, a token file is a secret."""
    private_dir(path.parent)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    return os.fdopen(descriptor, "wb")


class RecordWriter:
    """Appends the lines of one match record as the match is played."""

    def __init__(self, path: Path, digest_every: int = 25):
        self.path = path
        self.digest_every = digest_every
        raw = open_private(path)
        self._file = gzip.open(raw, "wt", encoding="utf-8")
        self._raw = raw

    def _write(self, line: dict[str, Any]) -> None:
        self._file.write(json.dumps(line, separators=(",", ":")) + "\n")

    def header(
        self,
        game: str,
        players: int,
        seed: int,
        options: dict,
        seats: Sequence[str],
        match_id: str,
        wire_id: str,
    ) -> None:
        self._write(
            {
                "t": "header",
                "admiralty": __version__,
                "rules_hash": load_game(game).rules_hash(),
                "game": game,
                "players": players,
                "seed": seed,
                "options": options,
                "seats": list(seats),
                "match_id": match_id,
                "wire_id": wire_id,
            }
        )

    def decision(
        self,
        step: int,
        request_id: str,
        seat: int,
        window_id: int,
        window: str,
        kind: str,
        index: int,
        latency_ms: float,
        how: str,
    ) -> None:
        self._write(
            {
                "t": "decision",
                "step": step,
                "request_id": request_id,
                "seat": seat,
                "window_id": window_id,
                "window": window,
                "kind": kind,
                "index": index,
                "latency_ms": round(latency_ms, 3),
                "how": how,
            }
        )

    def events(self, step: int, events: Sequence[Event]) -> None:
        for event in events:
            self._write({"t": "event", "step": step, **event.to_json()})

    def wants_digest(self, step: int) -> bool:
        """Whether a digest is due after `step` (hashing the state is not free)."""
        return step % self.digest_every == 0

    def digest(self, step: int, digest: str) -> None:
        self._write({"t": "digest", "step": step, "digest": digest})

    def result(
        self,
        places: Sequence[int],
        scores: Sequence[int],
        forfeited: Sequence[int],
        incidents: Sequence[dict],
    ) -> None:
        self._write(
            {
                "t": "result",
                "places": list(places),
                "scores": list(scores),
                "forfeited": list(forfeited),
                "incidents": list(incidents),
            }
        )

    def aborted(self, step: int) -> None:
        """The match stopped before its end (interrupted, or the referee failed)."""
        self._write({"t": "aborted", "step": step})

    def close(self) -> None:
        self._file.close()
        self._raw.close()


class RecordError(ValueError):
    """A file that is not a readable match record; the message says why."""


def read_record(path: Path) -> Iterator[dict[str, Any]]:
    """The lines of a record, header first. A file cut short (a killed referee) yields the
    lines before the cut, then a final `{"t": "truncated"}` line."""
    count = 0
    try:
        with gzip.open(path, "rt", encoding="utf-8") as file:
            for line in file:
                record = _parse(line, path)
                if count == 0 and record["t"] != "header":
                    raise RecordError(f"{path}: not a match record (no header line)")
                count += 1
                yield record
    except (EOFError, zlib.error) as error:
        if count == 0:
            raise RecordError(f"{path}: not a gzip match record ({error})") from None
        yield {"t": "truncated"}
        return
    except (gzip.BadGzipFile, UnicodeDecodeError) as error:
        raise RecordError(f"{path}: not a gzip match record ({error})") from None
    if count == 0:
        raise RecordError(f"{path}: the record is empty")


def _parse(line: str, path: Path) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        record = None
    if not isinstance(record, dict) or not isinstance(record.get("t"), str):
        raise RecordError(f"{path}: not a match record (a line is not a record line)")
    return record


@dataclass
class ReplayReport:
    """What re-running a record found."""

    header: dict[str, Any]
    steps: int = 0
    digests_checked: int = 0
    mismatches: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    ending: str = "no result line"
    """Why there is no result: "no result line", "aborted" or "truncated"."""

    @property
    def complete(self) -> bool:
        return self.result is not None

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.complete


def verify_record(path: Path) -> ReplayReport:
    """Re-run the engine from the record's seed and decisions; compare events and digests."""
    lines = iter(read_record(path))
    header = next(lines)
    game = load_game(header["game"])
    report = ReplayReport(header)
    if header["rules_hash"] != game.rules_hash():
        report.mismatches.append(
            f"rules hash {header['rules_hash']} differs from this engine's {game.rules_hash()}"
        )
    state = game.new_game(header["players"], header["seed"], header["options"])
    expected = [event.to_json() for event in state.setup_events]
    for line in lines:
        kind = line.pop("t")
        if kind == "event":
            line.pop("step")
            if not expected or expected.pop(0) != line:
                report.mismatches.append(f"step {report.steps}: event {line['kind']} differs")
        elif kind == "decision":
            try:
                events = state.apply(line["seat"], line["index"])
            except IllegalAction as error:
                report.mismatches.append(f"step {line['step']}: decision is illegal here: {error}")
                return report
            expected.extend(event.to_json() for event in events)
            report.steps += 1
        elif kind == "digest":
            report.digests_checked += 1
            if state.digest() != line["digest"]:
                report.mismatches.append(f"step {line['step']}: state digest differs")
        elif kind == "result":
            report.result = line
            _check_result(state, line, report)
        elif kind in ("aborted", "truncated"):
            report.ending = kind
    return report


def _check_result(state, line: dict[str, Any], report: ReplayReport) -> None:
    outcome = state.outcome()
    if outcome is None:
        report.mismatches.append("the replayed game is not over where the record ends")
    elif list(outcome.scores) != line["scores"]:
        report.mismatches.append(f"scores {list(outcome.scores)} differ from {line['scores']}")
