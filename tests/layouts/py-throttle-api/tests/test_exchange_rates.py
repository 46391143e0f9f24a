from decimal import Decimal

from apiserver.services.exchange_rates import ExchangeRates


def test_convert_rounds_to_minor_units():
    rates = ExchangeRates.bundled()
    assert rates.convert(Decimal("10"), "EUR", "USD") == Decimal("10.84")
    assert rates.convert(Decimal("10"), "EUR", "JPY") == Decimal("1684")


def test_cross_rate():
    rates = ExchangeRates({"EUR": Decimal(1), "USD": Decimal(2), "GBP": Decimal(1)}, "t")
    assert rates.rate("USD", "GBP") == Decimal("0.5")
