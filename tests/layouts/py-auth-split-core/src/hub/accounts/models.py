"""Member records."""

from __future__ import annotations

from dataclasses import dataclass, field

from hub.lib.db import fetch_one


@dataclass
class Member:
    id: int
    handle: str
    email: str
    password_hash: str
    roles: list[str] = field(default_factory=lambda: ["member"])
    suspended: bool = False

    @property
    def is_moderator(self) -> bool:
        return "moderator" in self.roles


def member_by_email(dsn: str, email: str) -> Member | None:
    row = fetch_one(dsn, "SELECT id, handle, email, password_hash, roles, suspended "
                         "FROM members WHERE lower(email) = lower(%s)", (email,))
    return Member(**row) if row else None


def member_by_id(dsn: str, member_id: int) -> Member | None:
    row = fetch_one(dsn, "SELECT id, handle, email, password_hash, roles, suspended "
                         "FROM members WHERE id = %s", (member_id,))
    return Member(**row) if row else None
