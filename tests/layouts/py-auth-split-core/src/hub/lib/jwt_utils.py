"""JSON Web Token helpers (HS256 only)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

ALGORITHM = "HS256"


class MalformedJWT(ValueError):
    pass


class BadJWTSignature(ValueError):
    pass


def _enc(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _dec(part: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except ValueError as exc:
        raise MalformedJWT(str(exc)) from exc


def _mac(secret: str, msg: str) -> bytes:
    return hmac.new(secret.encode(), msg.encode(), hashlib.sha256).digest()


def jwt_encode(payload: dict[str, Any], secret: str) -> str:
    header = _enc(json.dumps({"alg": ALGORITHM, "typ": "JWT"}).encode())
    body = _enc(json.dumps(payload, sort_keys=True).encode())
    return f"{header}.{body}.{_enc(_mac(secret, f'{header}.{body}'))}"


def jwt_split(token: str) -> tuple[dict[str, Any], dict[str, Any], bytes]:
    parts = token.split(".")
    if len(parts) != 3:
        raise MalformedJWT("a JWT has three dot-separated parts")
    try:
        header = json.loads(_dec(parts[0]))
        payload = json.loads(_dec(parts[1]))
    except json.JSONDecodeError as exc:
        raise MalformedJWT("header or payload is not JSON") from exc
    return header, payload, _dec(parts[2])


def jwt_decode(token: str, secret: str) -> dict[str, Any]:
    """Payload of a token signed with `secret`. Registered time claims are not checked here."""
    header, payload, signature = jwt_split(token)
    if header.get("alg") != ALGORITHM:
        raise MalformedJWT(f"alg must be {ALGORITHM}")
    head, body, _ = token.split(".")
    if not hmac.compare_digest(signature, _mac(secret, f"{head}.{body}")):
        raise BadJWTSignature("signature does not match")
    return payload


def jwt_exp_passed(payload: dict[str, Any], at: float, leeway: float = 0.0) -> bool:
    """Whether the `exp` claim (epoch seconds) lies before `at - leeway`."""
    return float(payload["exp"]) < at - leeway
