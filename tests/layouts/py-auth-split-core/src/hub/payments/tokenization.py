"""Card tokenization.

The browser sends card details straight to the processor and gets back a
single-use token; the server exchanges it for a reusable card token that
stands for the card until the card's expiry date.
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass
from datetime import date


class TokenizationError(Exception):
    pass


@dataclass(frozen=True)
class CardToken:
    token: str
    member_id: int
    network: str
    last_digits: str
    expiry: date

    def usable_on(self, day: date) -> bool:
        return day <= self.expiry


def card_expiry(month: int, year: int) -> date:
    """The last day a card is valid: the end of its expiry month."""
    if month == 12:
        return date(year, 12, 31)
    return date.fromordinal(date(year, month + 1, 1).toordinal() - 1)


def exchange_single_use_token(single_use: str, member_id: int, processor_url: str) -> CardToken:
    req = urllib.request.Request(
        f"{processor_url}/tokens/exchange",
        data=json.dumps({"token": single_use}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        if resp.status != 200:
            raise TokenizationError(f"processor answered {resp.status}")
        body = json.load(resp)
    token = CardToken(body["card_token"], member_id, body["network"], body["last4"],
                      card_expiry(int(body["exp_month"]), int(body["exp_year"])))
    if not token.usable_on(date.today()):
        raise TokenizationError("the card has expired")
    return token


def tokens_to_renew(tokens: list[CardToken], today: date, notice_days: int = 30) -> list[CardToken]:
    """Card tokens whose card expires within the notice period: their members get an e-mail."""
    return [t for t in tokens if t.usable_on(today) and (t.expiry - today).days <= notice_days]
