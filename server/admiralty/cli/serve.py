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


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 50051,
    records: Annotated[Path, typer.Option(help="Directory for match records.")] = Path("records"),
    tls_cert: Annotated[
        Path | None, typer.Option(help="PEM certificate chain: serve over TLS (with --tls-key).")
    ] = None,
    tls_key: Annotated[Path | None, typer.Option(help="PEM private key of --tls-cert.")] = None,
    keep_finished: Annotated[
        int,
        typer.Option(
            help="Finished matches remembered for GetMatch, ListMatches and "
            "Watch; older ones are forgotten (their records stay).",
            min=1,
        ),
    ] = 1000,
    token_file: Annotated[
        Path | None,
        typer.Option(
            "--token-file",
            dir_okay=False,
            show_default=False,
            help="Also write the admin token to this file, readable by you only, "
            "before listening: the clients' --token-file, or "
            "ADMIRALTY_TOKEN=$(cat FILE).",
        ),
    ] = None,
) -> None:
    """Run the referee server (RefereeService) until interrupted (Ctrl-C or SIGTERM).

    Every call but Watch needs the admin token printed at start, sent as the metadata
    `authorization: Bearer TOKEN`; Watch shows the public view, or everything with the token.
    The `match` commands and `watch` read it from ADMIRALTY_TOKEN or --token-file (keep it
    off command lines: every local user can read them). The token travels in clear text
    unless the server has --tls-cert and --tls-key.
    """
    from admiralty.referee.service import serve_referee

    _check_host(host)
    tls = _tls_pair(tls_cert, tls_key)
    warning = exposure_warning(host, tls is not None)
    if warning:
        err.print(warning, style="yellow", highlight=False)
    token = secrets.token_urlsafe(24)
    if token_file is not None:
        try:
            with open_private(token_file) as file:
                file.write(f"{token}\n".encode())
        except OSError as error:
            raise usage(f"cannot write {token_file}: {error.strerror or error}") from None

    async def main() -> None:
        server = await serve_referee(host, port, token, records, tls, keep_finished)
        stopped = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stopped.set)
        out.print(f"referee listening on {host}:{port}" + (" (TLS)" if tls else ""))
        out.print(f"admin token: {token}")
        await stopped.wait()
        out.print("stopping: running matches are abandoned")
        await server.stop(grace=1.0)

    try:
        asyncio.run(main())
    except OSError as error:
        raise fail(str(error)) from None


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
