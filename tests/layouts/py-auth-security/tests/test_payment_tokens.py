from datetime import date

from app.billing.payment_tokens import PaymentToken, expiring_tokens


def card(month, year):
    return PaymentToken("pt_1", 3, "visa", "4242", month, year)


def test_card_valid_through_its_expiry_month():
    assert not card(2, 2028).is_expired(date(2028, 2, 29))
    assert card(2, 2028).is_expired(date(2028, 3, 1))


def test_expiring_tokens():
    today = date(2030, 5, 10)
    soon, later, gone = card(5, 2030), card(12, 2030), card(4, 2030)
    assert expiring_tokens([soon, later, gone], 30, today) == [soon]


def test_masked():
    assert card(7, 2031).masked() == "Visa •••• 4242 (07/31)"
