"""Stored payment methods.

Card numbers go straight from the browser to the payment gateway, which gives
us back a payment token. We keep that token with the card's brand, last four
digits and expiry date so that patients can pay later invoices in one click.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date

import httpx

from app.config import Config


class PaymentTokenError(Exception):
    pass


@dataclass(frozen=True)
class PaymentToken:
    token: str
    patient_id: int
    brand: str
    last4: str
    exp_month: int
    exp_year: int

    @property
    def expiry_date(self) -> date:
        """Cards are valid through the last day of their expiry month."""
        last_day = calendar.monthrange(self.exp_year, self.exp_month)[1]
        return date(self.exp_year, self.exp_month, last_day)

    def is_expired(self, today: date | None = None) -> bool:
        return (today or date.today()) > self.expiry_date

    def masked(self) -> str:
        return f"{self.brand.title()} •••• {self.last4} ({self.exp_month:02d}/{self.exp_year % 100:02d})"


def exchange_setup_token(setup_token: str, patient_id: int, config: Config) -> PaymentToken:
    """Trades the one-time setup token from the browser for a reusable payment token."""
    resp = httpx.post(f"{config.payment_gateway_url}/v1/payment_tokens",
                      json={"setup_token": setup_token}, timeout=10)
    if resp.status_code != 201:
        raise PaymentTokenError(f"gateway refused the setup token ({resp.status_code})")
    body = resp.json()
    token = PaymentToken(body["token"], patient_id, body["brand"], body["last4"],
                         int(body["exp_month"]), int(body["exp_year"]))
    if token.is_expired():
        raise PaymentTokenError("card already expired")
    return token


def expiring_tokens(tokens: list[PaymentToken], within_days: int, today: date | None = None) -> list[PaymentToken]:
    """Cards whose expiry falls within the next `within_days` days (reminder e-mails)."""
    today = today or date.today()
    return [t for t in tokens
            if not t.is_expired(today) and (t.expiry_date - today).days <= within_days]
