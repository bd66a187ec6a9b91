"""Reaching a served referee (`watch`, the `match` commands): its address, TLS roots and
the admin token, and its errors as one line."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import grpc
import typer

from admiralty.cli.output import err, fail, usage

ServerOption = Annotated[
    str,
    typer.Option(
        envvar="ADMIRALTY_SERVER",
        metavar="HOST:PORT",
        help="The address of the referee (`admiralty serve`); or set ADMIRALTY_SERVER.",
    ),
]
TlsCaOption = Annotated[
    Path | None,
    typer.Option(
        help="Connect over TLS, trusting these PEM root certificates "
        "(the server's --tls-cert, if self-signed)."
    ),
]


def _warn_if_typed(ctx: typer.Context, token: str | None) -> str | None:
    """A token typed on the command line can be read by every user of this machine (ps):
    one warning line, and the token."""
    source = ctx.get_parameter_source("token")
    if token is not None and source is not None and source.name == "COMMANDLINE":
        err.print(
            "warning: a token typed as --token can be read by every user of this "
            "machine (ps); set ADMIRALTY_TOKEN or use --token-file",
            style="yellow",
            highlight=False,
            soft_wrap=True,
        )
    return token


TokenOption = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar="ADMIRALTY_TOKEN",
        metavar="TOKEN",
        show_default=False,
        callback=_warn_if_typed,
        help="The admin token `admiralty serve` printed. Set ADMIRALTY_TOKEN or use "
        "--token-file instead: a token typed here can be read by every user of this "
        "machine (ps), so it draws a warning.",
    ),
]
TokenFileOption = Annotated[
    Path | None,
    typer.Option(
        "--token-file",
        dir_okay=False,
        show_default=False,
        help="A file holding the admin token; taken before ADMIRALTY_TOKEN and --token.",
    ),
]


def admin_token(token: str | None, token_file: Path | None) -> str | None:
    """The admin token of a command taking TokenOption and TokenFileOption: from
    --token-file, else ADMIRALTY_TOKEN or --token; None if none was given. A file that
    cannot be read and a token that cannot be one (empty, or not printable ASCII without
    spaces, as `admiralty serve` prints it) are one usage line."""
    source = "--token or ADMIRALTY_TOKEN"
    if token_file is not None:
        try:
            token = token_file.read_text(encoding="ascii", errors="replace").strip()
        except OSError as error:
            raise usage(
                f"--token-file {token_file}: cannot read it: {error.strerror or error}"
            ) from None
        source = f"--token-file {token_file}"
    if token is None:
        return None
    if not token or not token.isascii() or not token.isprintable() or " " in token:
        raise usage(
            f"{source}: not an admin token (`admiralty serve` prints one of "
            "printable ASCII characters, no spaces)"
        )
    return token


def needed_token(token: str | None, token_file: Path | None) -> str:
    """`admin_token`, for a call that cannot be made without it."""
    resolved = admin_token(token, token_file)
    if resolved is None:
        raise usage(
            "this call needs the admin token `admiralty serve` printed: set "
            "ADMIRALTY_TOKEN or give --token-file FILE"
        )
    return resolved


@contextlib.contextmanager
def served(server: str, tls_ca: Path | None) -> Iterator[bytes | None]:
    """The TLS roots to reach `server` with; gRPC and file errors as one line."""
    try:
        roots = tls_ca.read_bytes() if tls_ca is not None else None
    except OSError as error:
        raise usage(f"cannot read {tls_ca}: {error.strerror or error}") from None
    try:
        yield roots
    except grpc.RpcError as error:
        raise fail(f"{server}: {error.code().name.lower()}: {error.details()}") from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None
