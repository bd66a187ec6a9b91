"""Reading what a spy bot received, and looking for what it must never see."""

from __future__ import annotations

import json
import struct
from collections.abc import Iterable
from pathlib import Path

from admiralty_sdk.v1 import bot_pb2

SPY_BOT = Path(__file__).resolve().parent / "bots" / "spy_bot.py"


def spy_bot(directory: Path) -> str:
    """The spy bot as a BOT argument, keeping what it receives in `directory`/spy.bin."""
    return f"{SPY_BOT} --out {directory / 'spy.bin'}"


def read_spy(path: Path) -> dict:
    """{"cwd": ..., "raw": [bytes...], "decide": [DecideRequest], "over": [MatchOverRequest]}."""
    data = path.read_bytes()
    kept = {"cwd": None, "raw": [], "decide": [], "over": []}
    at = 0
    while at < len(data):
        kind, (size,) = data[at : at + 1], struct.unpack(">I", data[at + 1 : at + 5])
        payload = data[at + 5 : at + 5 + size]
        at += 5 + size
        if kind == b"C":
            kept["cwd"] = json.loads(payload)["cwd"]
            continue
        kept["raw"].append(payload)
        message = bot_pb2.DecideRequest() if kind == b"D" else bot_pb2.MatchOverRequest()
        message.ParseFromString(payload)
        kept["decide" if kind == b"D" else "over"].append(message)
    return kept


def varint(value: int) -> bytes:
    """The protobuf varint encoding of a non-negative int below 2**64."""
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def seed_forms(seed: int) -> list[bytes]:
    """Every way a seed could travel in a message: decimal, hex, varint, fixed64."""
    forms = [str(seed).encode(), f"{seed:x}".encode()]
    if seed < 2**64:
        forms += [varint(seed), seed.to_bytes(8, "little"), seed.to_bytes(8, "big")]
    return forms


def assert_absent(blobs: Iterable[bytes], secrets: Iterable[bytes | str]) -> None:
    """None of `secrets` occurs in any blob."""
    blobs = list(blobs)
    assert blobs, "the spy received nothing"
    for secret in secrets:
        needle = secret.encode() if isinstance(secret, str) else secret
        for blob in blobs:
            assert needle not in blob, f"{needle!r} reached the bot"
