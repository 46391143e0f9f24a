"""Password hashing with scrypt; hashes are stored as `scrypt$n$salt$hash`."""

from __future__ import annotations

import hashlib
import hmac
import os

N, R, P = 2**14, 8, 1


def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=N, r=R, p=P)
    return f"scrypt${N}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        scheme, n, salt_hex, digest_hex = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    digest = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt_hex), n=int(n), r=R, p=P)
    return hmac.compare_digest(digest, bytes.fromhex(digest_hex))


def needs_rehash(stored: str) -> bool:
    return not stored.startswith(f"scrypt${N}$")
