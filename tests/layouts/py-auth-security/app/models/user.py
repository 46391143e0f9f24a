"""Portal users: patients and staff share one table."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.orm import Session

ROLES = ("patient", "staff", "admin")


@dataclass(frozen=True)
class User:
    id: int
    email: str
    full_name: str
    role: str
    password_hash: str
    active: bool


def _row_to_user(row) -> User:
    return User(row.id, row.email, row.full_name, row.role, row.password_hash, bool(row.active))


def find_by_email(db: Session, email: str) -> User | None:
    row = db.execute(
        text("SELECT id, email, full_name, role, password_hash, active FROM users WHERE email = :e"),
        {"e": email.strip().lower()},
    ).first()
    return _row_to_user(row) if row else None


def find_by_id(db: Session, user_id: int) -> User | None:
    row = db.execute(
        text("SELECT id, email, full_name, role, password_hash, active FROM users WHERE id = :i"),
        {"i": user_id},
    ).first()
    return _row_to_user(row) if row else None
