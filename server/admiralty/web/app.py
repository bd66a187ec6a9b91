"""The web app: its routes, the security headers every response carries, the static files
and the error pages (one clear sentence, never a traceback)."""

from __future__ import annotations

import contextlib
import signal
import socket
from collections.abc import Iterator
from http import HTTPStatus

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from admiralty.tournament.store import StoreError
from admiralty.web import arena, auth, tournaments
from admiralty.web.config import WebConfig
from admiralty.web.matches import routes as match_routes
from admiralty.web.templating import STATIC, templates

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
}
"""On every response: scripts and styles from this site only (no inline ones), no framing,
no referrer leaving the site (but its own forms name their origin, which sign-in
checks: with `no-referrer` a browser sends `Origin: null`), no content-type sniffing."""
HEADINGS = {
    400: "Bad request",
    403: "Not allowed",
    404: "Not found",
    405: "Not allowed",
    413: "Too large",
    503: "Database unavailable",
}


def create_app(config: WebConfig) -> Starlette:
    """The app serving `config`'s database, records, referee and arena."""
    app = Starlette(
        routes=[
            *tournaments.routes(config),
            *match_routes(config),
            *arena.routes(config),
            *auth.routes(config),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={
            HTTPException: _http_error,
            StoreError: _store_error,
            Exception: _server_error,
        },
    )
    app.state.config = config
    app.state.sessions = auth.Sessions()
    templates.env.globals["is_operator"] = auth.is_operator
    return app


class SecurityHeaders:
    """SECURITY_HEADERS added to every response's start (streamed ones too)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = message.get("headers", [])
                headers = [(k, v) for k, v in kept if k.decode().lower() not in SECURITY_HEADERS]
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_secured)


def error_page(request: Request, status: int, message: str) -> Response:
    """A page saying `message`, with status `status`."""
    heading = HEADINGS.get(status, "Something went wrong")
    return templates.TemplateResponse(
        request,
        "error.html",
        {"heading": heading, "message": message},
        status_code=status,
        headers=SECURITY_HEADERS,
    )


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    default = {404: "There is no such page.", 405: "That page cannot be asked for that way."}
    detail = error.detail if error.detail != _phrase(error.status_code) else None
    return error_page(
        request, error.status_code, detail or default.get(error.status_code, "Bad request.")
    )


async def _store_error(request: Request, error: Exception) -> Response:
    """The database cannot be read (not a database, locked, of another version)."""
    return error_page(request, 503, str(error))


async def _server_error(request: Request, error: Exception) -> Response:
    """An unexpected failure: said in one sentence (the traceback goes to the log)."""
    return error_page(request, 500, "The page could not be made; the server's log says why.")


def _phrase(status: int) -> str:
    """Starlette's default detail of an HTTPException: the status's reason phrase."""
    return HTTPStatus(status).phrase


def serve(app: Starlette, listening: socket.socket) -> None:
    """Serve `app` on the bound socket `listening` until Ctrl-C or SIGTERM."""
    settings = uvicorn.Config(app, log_level="warning", access_log=False, server_header=False)
    _Server(settings).run(sockets=[listening])


class _Server(uvicorn.Server):
    """uvicorn's server, stopping on Ctrl-C or SIGTERM as it does, but then returning (exit
    0) where uvicorn's raises the signal again (exit 130, or killed by SIGTERM)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        handled = (signal.SIGINT, signal.SIGTERM)
        original = {signum: signal.signal(signum, self.handle_exit) for signum in handled}
        try:
            yield
        finally:
            for signum, handler in original.items():
                signal.signal(signum, handler)
