"""`admiralty serve`: the referee server, until interrupted."""

from __future__ import annotations

import asyncio
import ipaddress
import secrets
import signal
import socket
from pathlib import Path
from typing import Annotated

import typer

from admiralty.cli.output import err, fail, out, usage
from admiralty.referee.record import open_private

HostOption = Annotated[str, typer.Option(help="Address to listen on.")]
PortOption = Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)]
RecordsOption = Annotated[Path, typer.Option(help="Directory for match records.")]
TlsCertOption = Annotated[
    Path | None, typer.Option(help="PEM certificate chain: serve over TLS (with --tls-key).")
]
TlsKeyOption = Annotated[Path | None, typer.Option(help="PEM private key of --tls-cert.")]
TokenFileOption = Annotated[
    Path | None,
    typer.Option(
        "--token-file",
        dir_okay=False,
        show_default=False,
        help="Also write the admin token to this file, readable by you only, "
        "before listening: the clients' --token-file, or "
        "ADMIRALTY_TOKEN=$(cat FILE).",
    ),
]

KeepFinishedOption = Annotated[
    int,
    typer.Option(
        help="Finished matches remembered for GetMatch, ListMatches and "
        "Watch; older ones are forgotten (their records stay).",
        min=1,
    ),
]


def serve(
    host: HostOption = "127.0.0.1",
    port: PortOption = 50051,
    records: RecordsOption = Path("records"),
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    keep_finished: KeepFinishedOption = 1000,
    token_file: TokenFileOption = None,
) -> None:
    """Run the referee server (RefereeService) until interrupted (Ctrl-C or SIGTERM).

    Every call but Watch needs the admin token printed at start, sent as the metadata
    `authorization: Bearer TOKEN`; Watch shows the public view, or everything with the token.
    The `match` commands and `watch` read it from ADMIRALTY_TOKEN or --token-file (keep it
    off command lines: every local user can read them). The token travels in clear text
    unless the server has --tls-cert and --tls-key.
    """
    from admiralty.referee.service import serve_referee

    tls = listening_checks(host, tls_cert, tls_key)
    token = admin_token(token_file)

    async def main() -> None:
        server = await serve_referee(host, port, token, records, tls, keep_finished)
        stopped = until_signalled()
        out.print(f"referee listening on {host}:{port}" + (" (TLS)" if tls else ""))
        out.print(f"admin token: {token}")
        await stopped.wait()
        out.print("stopping: running matches are abandoned")
        await server.stop(grace=1.0)

    try:
        asyncio.run(main())
    except OSError as error:
        raise fail(str(error)) from None


def listening_checks(
    host: str, tls_cert: Path | None, tls_key: Path | None
) -> tuple[bytes, bytes] | None:
    """Check --host and the TLS files (one usage line), warn of clear text beyond this
    machine; the TLS pair, or None."""
    _check_host(host)
    tls = _tls_pair(tls_cert, tls_key)
    warning = exposure_warning(host, tls is not None)
    if warning:
        err.print(warning, style="yellow", highlight=False)
    return tls


def admin_token(token_file: Path | None) -> str:
    """A new admin token, written to `token_file` (readable by its owner only) if given."""
    token = secrets.token_urlsafe(24)
    if token_file is not None:
        try:
            with open_private(token_file) as file:
                file.write(f"{token}\n".encode())
        except OSError as error:
            raise usage(f"cannot write {token_file}: {error.strerror or error}") from None
    return token


def until_signalled() -> asyncio.Event:
    """An event set by Ctrl-C or SIGTERM, in the running event loop."""
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopped.set)
    return stopped


def _check_host(host: str) -> None:
    """One usage line for a --host that is no address (999.1.1.1) or names no host, which
    gRPC would only report as a port it cannot listen on. An IP address is never looked up."""
    name = host.strip("[]")
    try:
        if ":" in name or all(c.isdigit() or c == "." for c in name):
            ipaddress.ip_address(name)
        else:
            socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)
    except ValueError:
        raise usage(f"--host {host}: not a valid IP address") from None
    except (socket.gaierror, UnicodeError):
        raise usage(f"--host {host}: no such host name") from None


def _tls_pair(cert: Path | None, key: Path | None) -> tuple[bytes, bytes] | None:
    """(key, certificate chain) as gRPC wants them, or None without TLS."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise usage("TLS needs both --tls-cert and --tls-key")
    try:
        return key.read_bytes(), cert.read_bytes()
    except OSError as error:
        raise usage(f"cannot read {error.filename}: {error.strerror}") from None


def exposure_warning(host: str, tls: bool) -> str | None:
    """A warning when the referee listens beyond this machine in clear text."""
    if tls or _is_loopback(host):
        return None
    return (
        f"warning: serving on {host} without TLS: the admin token and every match "
        "cross the network in clear text (see --tls-cert)"
    )


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"
