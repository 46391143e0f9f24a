"""/auth endpoints."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from app.services.auth import AuthError, AuthService


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value else None


def current_identity(request: Request):
    token = bearer_token(request)
    if token is None:
        raise AuthError("missing bearer token", "token_missing")
    service: AuthService = request.app.state.auth
    return service.authenticate(token)


async def login(request: Request) -> Response:
    body = await request.json()
    service: AuthService = request.app.state.auth
    try:
        result = service.login(body.get("email", ""), body.get("password", ""),
                               request.headers.get("user-agent", ""))
    except AuthError as exc:
        return JSONResponse({"error": exc.code}, status_code=401)
    return JSONResponse({"access_token": result.access_token, "expires_at": result.expires_at,
                         "role": result.user.role}, status_code=201)


async def renew(request: Request) -> Response:
    try:
        identity = current_identity(request)
    except AuthError as exc:
        return JSONResponse({"error": exc.code}, status_code=401)
    token, exp = request.app.state.auth.renew(identity)
    return JSONResponse({"access_token": token, "expires_at": exp})


async def logout(request: Request) -> Response:
    try:
        identity = current_identity(request)
    except AuthError as exc:
        return JSONResponse({"error": exc.code}, status_code=401)
    request.app.state.auth.logout(identity)
    return Response(status_code=204)
