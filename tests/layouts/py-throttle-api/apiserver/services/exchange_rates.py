"""Currency exchange rates for billing partners in their own currency."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

BUNDLED = {"EUR": "1", "USD": "1.0842", "GBP": "0.8571", "CHF": "0.9772", "JPY": "168.41"}
MINOR_UNITS = {"JPY": 0}


@dataclass(frozen=True)
class ExchangeRates:
    """Rates quoted against EUR: 1 EUR = rates[currency] units of currency."""

    rates: dict[str, Decimal]
    as_of: str

    @classmethod
    def bundled(cls) -> ExchangeRates:
        return cls({k: Decimal(v) for k, v in BUNDLED.items()}, "bundled")

    @classmethod
    def from_file(cls, path: Path) -> ExchangeRates:
        data = json.loads(path.read_text())
        return cls({k: Decimal(str(v)) for k, v in data["rates"].items()} | {"EUR": Decimal(1)},
                   data["date"])

    def rate(self, source: str, target: str) -> Decimal:
        """Units of `target` per unit of `source`; KeyError for an unknown currency."""
        return self.rates[target] / self.rates[source]

    def convert(self, amount: Decimal, source: str, target: str) -> Decimal:
        exponent = Decimal(1).scaleb(-MINOR_UNITS.get(target, 2))
        return (amount * self.rate(source, target)).quantize(exponent, rounding=ROUND_HALF_EVEN)
