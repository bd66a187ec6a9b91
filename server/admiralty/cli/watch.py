"""`admiralty watch`: a match on a referee server, followed live."""

from __future__ import annotations

from typing import Annotated

import typer

from admiralty.cli.display import Display
from admiralty.cli.options import ExportOption, LegendOption, SeatViewOption
from admiralty.cli.output import fail, out, usage
from admiralty.cli.remote import (
    ServerOption,
    TlsCaOption,
    TokenFileOption,
    TokenOption,
    admin_token,
    served,
)
from admiralty.console.feeds import watch_remote


def watch(
    match_id: Annotated[str, typer.Argument(help="The match, as listed by the referee.")],
    server: ServerOption = "127.0.0.1:50051",
    token: TokenOption = None,
    token_file: TokenFileOption = None,
    seat: SeatViewOption = None,
    legend: LegendOption = False,
    export_to: ExportOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Follow a match on a referee server live, as a spectator (or, with --seat and the
    admin token, as that seat). Off a terminal, print the whole log and the result.

    With the admin token (ADMIRALTY_TOKEN, --token-file) every seat's cards are shown."""
    display = Display(seat, legend, export_to)
    display.check()
    admin = admin_token(token, token_file)
    if seat is not None and admin is None:
        raise usage("--seat needs the admin token: set ADMIRALTY_TOKEN or give --token-file FILE")
    with served(server, tls_ca) as roots:
        try:
            screen = watch_remote(server, match_id, admin or "", out, roots, seat, legend)
        except ValueError as error:
            raise fail(str(error)) from None
    display.finish(screen)
