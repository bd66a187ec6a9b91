"""The operator's sign-in: the token posted once in a form, then a cookie holding a random
session id that this process keeps in memory (a restart signs everyone out). The token
itself never travels in a URL, a cookie or a page.

The cookie is HttpOnly (no script reads it) and SameSite=Strict (no other site's page can
send it), and a post carrying another origin's Origin header is refused, so no other page
can sign a visitor in or out."""

from __future__ import annotations

import hmac
import re
import secrets
from urllib.parse import parse_qs

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from admiralty.web.config import WebConfig
from admiralty.web.templating import templates

COOKIE = "admiralty_session"
FORM_LIMIT = 4096
"""Bytes of a sign-in form read at most: a token and a page path fit many times over."""
LOCAL_PATH = re.compile(r"/(?![/\\])[A-Za-z0-9_.~%/-]*")
"""Where a sign-in may return to: a path of this site (not `//host`, which leaves it)."""


class Sessions:
    """The ids of signed-in sessions."""

    def __init__(self) -> None:
        self._ids: set[str] = set()

    def open(self) -> str:
        session = secrets.token_urlsafe(32)
        self._ids.add(session)
        return session

    def close(self, session: str | None) -> None:
        self._ids.discard(session or "")

    def __contains__(self, session: object) -> bool:
        return session in self._ids


def is_operator(request: Request) -> bool:
    """Whether the visitor signed in with the operator's token."""
    return request.cookies.get(COOKIE) in request.app.state.sessions


def routes(config: WebConfig) -> list[BaseRoute]:
    """GET and POST /signin, POST /signout."""

    async def signin_form(request: Request) -> Response:
        back = _local(request.query_params.get("next"))
        return templates.TemplateResponse(request, "signin.html", {"next": back})

    async def signin(request: Request) -> Response:
        _same_origin(request)
        form = await _form(request)
        back = _local(form.get("next"))
        if not hmac.compare_digest(form.get("token", "").encode(), config.token.encode()):
            return templates.TemplateResponse(
                request, "signin.html", {"next": back, "refused": True}, status_code=403
            )
        response = RedirectResponse(back, status_code=303)
        response.set_cookie(
            COOKIE, request.app.state.sessions.open(), httponly=True, samesite="strict"
        )
        return response

    async def signout(request: Request) -> Response:
        _same_origin(request)
        request.app.state.sessions.close(request.cookies.get(COOKIE))
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(COOKIE, httponly=True, samesite="strict")
        return response

    return [
        Route("/signin", signin_form, methods=["GET"]),
        Route("/signin", signin, methods=["POST"]),
        Route("/signout", signout, methods=["POST"]),
    ]


async def _form(request: Request) -> dict[str, str]:
    """The urlencoded form's fields (the first value of each); 413 past FORM_LIMIT."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_LIMIT:
            raise HTTPException(413, "That form is too large.")
    try:
        fields = parse_qs(body.decode("utf-8", errors="replace"), max_num_fields=8)
    except ValueError:
        raise HTTPException(400, "That form has too many fields.") from None
    return {key: values[0] for key, values in fields.items()}


def _same_origin(request: Request) -> None:
    """403 for a post sent by a page of another origin (the browser names it in Origin)."""
    origin = request.headers.get("origin")
    here = f"{request.url.scheme}://{request.url.netloc}"
    if origin is not None and origin != here:
        raise HTTPException(403, "That form was sent from another site.")


def _local(path: str | None) -> str:
    """`path` if it is a page of this site (but the sign-in form), else the front page."""
    return path if path and LOCAL_PATH.fullmatch(path) and path != "/signin" else "/"
