"""CSRF protection for the cookie-based staff pages (double-submit token)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from app.utils import timeutil

CSRF_COOKIE = "portal_csrf"
CSRF_HEADER = "X-CSRF-Token"
CSRF_TOKEN_MAX_AGE = 2 * 60 * 60


def new_csrf_token(secret: str) -> str:
    """`<nonce>.<issued>.<mac>`: bound to our secret and to the time it was made."""
    nonce = secrets.token_hex(16)
    issued = str(int(timeutil.now()))
    mac = hmac.new(secret.encode(), f"{nonce}.{issued}".encode(), hashlib.sha256).hexdigest()
    return f"{nonce}.{issued}.{mac}"


def csrf_token_valid(token: str, secret: str) -> bool:
    try:
        nonce, issued, mac = token.split(".")
    except ValueError:
        return False
    expected = hmac.new(secret.encode(), f"{nonce}.{issued}".encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, mac):
        return False
    return timeutil.now() - int(issued) <= CSRF_TOKEN_MAX_AGE


def check_request(method: str, cookie_token: str | None, header_token: str | None, secret: str) -> bool:
    """Safe methods pass; others need the same valid token in cookie and header."""
    if method in ("GET", "HEAD", "OPTIONS"):
        return True
    if not cookie_token or not header_token:
        return False
    return hmac.compare_digest(cookie_token, header_token) and csrf_token_valid(header_token, secret)
