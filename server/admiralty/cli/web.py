"""`admiralty web`: the web app over the tournament database and the records folder (and a
served referee's live matches, and an arena), until interrupted."""

from __future__ import annotations

import ipaddress
import secrets
import socket
from pathlib import Path
from typing import Annotated

import typer

from admiralty.arena.store import ArenaStore
from admiralty.cli.output import err, fail, usage
from admiralty.cli.remote import TokenFileOption, _warn_if_typed, admin_token
from admiralty.tournament.store import Store, StoreError

WEB_PACKAGES = {"starlette", "uvicorn", "jinja2", "markupsafe", "anyio"}
"""What the `web` extra installs, and the app imports."""

WebTokenOption = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar="ADMIRALTY_TOKEN",
        metavar="TOKEN",
        show_default=False,
        callback=_warn_if_typed,
        help="The operator's sign-in token; with --server, the admin token `admiralty serve` "
        "printed, which also lets the operator watch its matches from a seat. Set "
        "ADMIRALTY_TOKEN or use --token-file instead: a token typed here can be read by every "
        "user of this machine (ps). Default: a new one, printed once.",
    ),
]


def web(
    db: Annotated[
        Path, typer.Option(help="The tournament database (read only; it may not exist yet).")
    ] = Path("admiralty.db"),
    records: Annotated[
        Path, typer.Option(help="The records folder `tournament run` wrote (read only).")
    ] = Path("records"),
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(help="Port to listen on; 0: a free one.", min=0, max=65535)
    ] = 0,
    server: Annotated[
        str | None,
        typer.Option(
            envvar="ADMIRALTY_SERVER",
            metavar="HOST:PORT",
            show_default=False,
            help="A referee (`admiralty serve`) whose matches the Live page shows as they "
            "are played; or set ADMIRALTY_SERVER.",
        ),
    ] = None,
    token: WebTokenOption = None,
    token_file: TokenFileOption = None,
    arena: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            show_default=False,
            help="An arena's SQLite file (`admiralty arena`), read only: the Arena page shows "
            "its standings, its matches and their replays.",
        ),
    ] = None,
    arena_records: Annotated[
        Path | None,
        typer.Option(
            show_default=False,
            help="The folder the arena writes its records to (read only). Default: --records, "
            "as for `arena serve`.",
        ),
    ] = None,
) -> None:
    """Serve tournaments and match replays to a browser, until interrupted.

    The pages: the tournaments of --db newest first; each one's leaderboard (the numbers
    of `tournament show --json`), rating history, head-to-head and matches; each recorded
    match in the replay viewer; with --server, the referee's live matches; with --arena,
    the arena's standings, recent matches and their replays. It prints its
    address (`serving http://HOST:PORT/`) and serves until interrupted (Ctrl-C or
    SIGTERM). It never writes a database or a record.

    Anyone who can reach the address sees the public view of every match; the operator,
    signed in with the token, also sees each seat's own view (its hand, requests, options
    and answers). Keep --host on this machine (the default) unless others should see it:
    the pages travel in clear text."""
    try:
        from admiralty.web.app import create_app, serve
        from admiralty.web.config import WebConfig
    except ImportError as error:
        if (error.name or "").split(".")[0] not in WEB_PACKAGES:
            raise
        raise fail("the web app needs its packages: pip install 'admiralty[web]'") from None
    _check_db(db)
    _check_arena(arena)
    for option, folder in (("--records", records), ("--arena-records", arena_records)):
        if folder and folder.exists() and not folder.is_dir():
            raise usage(f"{option} {folder}: not a directory")
    given = admin_token(token, token_file)
    config = WebConfig(
        db,
        records,
        given or secrets.token_urlsafe(24),
        server=server,
        server_token=given if server else None,
        arena=arena,
        arena_records=arena_records,
    )
    listening = _listen(host, port)
    if not _is_loopback(host):
        err.print(
            f"warning: serving on {host}: whoever reaches it sees every tournament, and the "
            "sign-in token and the pages cross the network in clear text",
            style="yellow",
            highlight=False,
        )
    if given is None:
        err.print(f"sign in with this token to see seats' views: {config.token}", highlight=False)
    address, bound = listening.getsockname()[:2]
    shown = f"[{address}]" if listening.family == socket.AF_INET6 else address
    print(f"serving http://{shown}:{bound}/", flush=True)
    serve(create_app(config), listening)


def _check_db(db: Path) -> None:
    """One line, exit 2, for a --db that is there but cannot be read as a tournament
    database; a missing one is fine (the pages say there are no tournaments yet)."""
    if not db.exists():
        return
    if db.is_dir():
        raise usage(f"--db {db}: a directory, not a database")
    try:
        Store(db, read_only=True).close()
    except StoreError as error:
        raise usage(str(error)) from None


def _check_arena(arena: Path | None) -> None:
    """One line, exit 2, for an --arena that is there but is not an arena's file; a
    missing one is fine (the page says there is no arena yet)."""
    if arena is None or not arena.exists():
        return
    if arena.is_dir():
        raise usage(f"--arena {arena}: a directory, not a database")
    try:
        ArenaStore(arena, read_only=True).close()
    except StoreError as error:
        raise usage(str(error)) from None


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on `host`:`port` (0: a free port), so the address printed is the
    one served, and a client that connects as soon as it is printed waits for the app
    rather than being refused; one line if the host is unknown or the port taken."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM
        )[0]
    except (socket.gaierror, UnicodeError):
        raise usage(f"--host {host}: no such host or address") from None
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen()
    except OSError as error:
        listening.close()
        raise fail(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return listening


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"
