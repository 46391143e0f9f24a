"""Compact JWS (HS256) encoding and decoding, enough for our own access tokens."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any


class JWTError(Exception):
    """A token that is malformed or wrongly signed."""


def _b64encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _b64decode(segment: str) -> bytes:
    padding = "=" * (-len(segment) % 4)
    try:
        return base64.urlsafe_b64decode(segment + padding)
    except (ValueError, TypeError) as exc:
        raise JWTError("segment is not base64url") from exc


def _sign(key: str, signing_input: bytes) -> bytes:
    return hmac.new(key.encode(), signing_input, hashlib.sha256).digest()


def encode(claims: dict[str, Any], key: str) -> str:
    header = _b64encode(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    payload = _b64encode(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
    signature = _b64encode(_sign(key, f"{header}.{payload}".encode()))
    return f"{header}.{payload}.{signature}"


def decode_unverified(token: str) -> dict[str, Any]:
    """The claims, without checking the signature (for logging and diagnostics only)."""
    try:
        _, payload, _ = token.split(".")
    except ValueError as exc:
        raise JWTError("expected three segments") from exc
    try:
        return json.loads(_b64decode(payload))
    except json.JSONDecodeError as exc:
        raise JWTError("payload is not JSON") from exc


def decode(token: str, key: str) -> dict[str, Any]:
    """Checks the HS256 signature and returns the claims. `exp` is left to the caller."""
    try:
        header_b64, payload_b64, signature_b64 = token.split(".")
    except ValueError as exc:
        raise JWTError("expected three segments") from exc
    header = json.loads(_b64decode(header_b64))
    if header.get("alg") != "HS256":
        raise JWTError(f"unsupported alg {header.get('alg')!r}")
    expected = _sign(key, f"{header_b64}.{payload_b64}".encode())
    if not hmac.compare_digest(expected, _b64decode(signature_b64)):
        raise JWTError("signature mismatch")
    return json.loads(_b64decode(payload_b64))


def seconds_left(claims: dict[str, Any], at: float) -> float:
    """Seconds until the `exp` claim (negative once expired)."""
    return float(claims["exp"]) - at
