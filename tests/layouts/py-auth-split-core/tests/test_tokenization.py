from datetime import date

from hub.payments.tokenization import CardToken, card_expiry, tokens_to_renew


def test_card_expiry_is_end_of_month():
    assert card_expiry(2, 2028) == date(2028, 2, 29)
    assert card_expiry(12, 2030) == date(2030, 12, 31)


def test_tokens_to_renew():
    today = date(2030, 6, 10)
    soon = CardToken("ct_1", 1, "visa", "4242", date(2030, 6, 30))
    later = CardToken("ct_2", 1, "visa", "1881", date(2031, 1, 31))
    assert tokens_to_renew([soon, later], today) == [soon]
