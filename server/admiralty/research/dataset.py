"""Match records as a dataset for learning: one row per decision a seat answered, built
from that seat's view alone.

A record holds every hand, so it is never read directly: the match is re-run through the
engine from its seed and decisions (as `read_timeline(path, seat)` re-runs it for a seat's
screen), and only the engine's two doors for the seat are opened, `state.view(seat)` and
the seat's own requests. A row is what the seat's bot got and did: the observation and
mask the SDK's encoder gives for its `DecideRequest` (the research environments' tensor),
the option it chose, and the reward the environments give (0, but for the seat's last
answer of a finished match: its place's `pairwise_rewards`).

Only answers the seat's bot gave are rows (`how` "bot" in the record): the referee's own
answers (a single option, an automatic pass, a failed bot's default) were not its choice.
In a SEALED window the row holds the view as the window opened, as the bot was sent it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from importlib import import_module
from pathlib import Path
from typing import Any

from admiralty.games import GameState, Outcome, load_game
from admiralty.referee.record import RecordError, read_record
from admiralty.referee.timeline import NoSuchSeat
from admiralty.research import require
from admiralty.research.actions import pairwise_rewards
from admiralty_sdk.encoding import ACTION_BOUNDS, Encoder, size

np = require("numpy")

DTYPES = {
    "observation": np.float32,
    "mask": np.int8,
    "action": np.int16,
    "reward": np.float32,
    "done": np.bool_,
    "match": np.int32,
    "step": np.int32,
}
"""A dataset's columns: the encoded observation (float32) and the action mask (int8) the
seat had, the option it chose, the reward after it, whether it was the seat's last answer
of a finished match, the record it comes from (its index among those exported) and the
record's step."""


class Rows:
    """The rows of one game and seat: a block of arrays per record, joined by `arrays`."""

    def __init__(self, game: str, seat: int):
        self.game, self.seat = game, seat
        self.blocks: list[dict[str, Any]] = []

    def __len__(self) -> int:
        return sum(len(block["action"]) for block in self.blocks)

    def block(self, count: int) -> dict[str, Any]:
        """A new block of `count` rows (zeros) for every column."""
        shapes = {"observation": (size(self.game),), "mask": (ACTION_BOUNDS[self.game],)}
        block = {name: np.zeros((count, *shapes.get(name, ())), t) for name, t in DTYPES.items()}
        self.blocks.append(block)
        return block

    def arrays(self) -> dict[str, Any]:
        """Every column, the blocks joined (and kept joined)."""
        if not self.blocks:
            self.block(0)
        if len(self.blocks) > 1:
            joined = {name: np.concatenate([b[name] for b in self.blocks]) for name in DTYPES}
            self.blocks = [joined]
        return self.blocks[0]


def answered(line: Mapping[str, Any], seat: int) -> bool:
    """Whether a record's decision line is an answer `seat`'s bot gave."""
    return line["seat"] == seat and line["how"] == "bot"


def seat_rows(
    game: str,
    state: GameState,
    decisions: Iterable[Mapping[str, Any]],
    seat: int,
) -> Iterator[dict[str, Any]]:
    """The rows of `seat` (but the reward: 0, and not done) while `decisions` (record
    lines: seat, index, step, window, window id, how) are applied to `state`, a game of
    `game`. A row's observation and mask are the encoder's own arrays, written over by
    the next row: copy them to keep them."""
    encoder = Encoder(game)
    window, opened = None, {}
    for line in decisions:
        sealed = line["window"] == "SEALED"
        if sealed and line["window_id"] != window:
            window, opened = line["window_id"], state.view(seat)
        if answered(line, seat):
            request = state.request_for(seat)
            view = opened if sealed else state.view(seat)
            yield {
                "observation": encoder.encode(view, request.kind, request.options),
                "mask": encoder.mask,
                "action": line["index"],
                "reward": 0.0,
                "done": False,
                "step": line["step"],
            }
        state.apply(line["seat"], line["index"])


def record_rows(path: Path, seat: int, match: int, rows: Rows) -> None:
    """Add the rows of `seat` in the record at `path`, numbered `match`, to `rows`.
    RecordError for a record of another game or of other rules (re-running it would not
    give what the seat saw), NoSuchSeat for a seat it lacks."""
    lines = list(read_record(path))
    header = lines[0]
    if header["game"] != rows.game:
        raise RecordError(f"{path}: a {header['game']} record, not {rows.game}")
    if header["rules_hash"] != load_game(rows.game).rules_hash():
        raise RecordError(f"{path}: recorded under other rules than this engine's")
    if not 0 <= seat < header["players"]:
        raise NoSuchSeat(f"--seat {seat}: {path} has seats 0 to {header['players'] - 1}")
    result = next((line for line in lines if line["t"] == "result"), None)
    state = load_game(header["game"]).new_game(header["players"], header["seed"], header["options"])
    decisions = [line for line in lines if line["t"] == "decision"]
    block = rows.block(sum(answered(line, seat) for line in decisions))
    for at, row in enumerate(seat_rows(header["game"], state, decisions, seat)):
        for name, value in row.items():
            block[name][at] = value
    block["match"][:] = match
    if result is not None and len(block["action"]):
        outcome = Outcome(tuple(result["places"]), tuple(result["scores"]))
        block["reward"][-1], block["done"][-1] = pairwise_rewards(outcome)[seat], True


def export(paths: Iterable[Path], seat: int) -> Rows:
    """The rows of `seat` in every record of `paths` (all of one game)."""
    paths = list(paths)
    if not paths:
        raise ValueError("no records to export")
    game = next(read_record(paths[0]))["game"]
    rows = Rows(game, seat)
    for match, path in enumerate(paths):
        record_rows(path, seat, match, rows)
    return rows


def save(rows: Rows, out: Path) -> None:
    """Write `rows` to `out`: .npz (numpy, compressed) or .parquet (pyarrow), with the
    game and seat (npz: arrays `game`, `seat`; parquet: the schema's metadata)."""
    arrays = rows.arrays()
    if out.suffix == ".npz":
        np.savez_compressed(out, game=np.array(rows.game), seat=np.array(rows.seat), **arrays)
    elif out.suffix == ".parquet":
        try:
            pa, parquet = import_module("pyarrow"), import_module("pyarrow.parquet")
        except ImportError:
            raise ImportError("writing .parquet needs pyarrow: pip install pyarrow") from None
        columns = {
            name: pa.FixedSizeListArray.from_arrays(pa.array(value.ravel()), value.shape[1])
            if value.ndim > 1
            else pa.array(value)
            for name, value in arrays.items()
        }
        table = pa.table(columns, metadata={"game": rows.game, "seat": str(rows.seat)})
        parquet.write_table(table, out)
    else:
        raise ValueError(f"{out}: write .npz or .parquet")
