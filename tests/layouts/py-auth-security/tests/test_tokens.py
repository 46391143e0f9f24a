import pytest

from app.config import Config
from app.security.tokens import (CLOCK_SKEW_SECONDS, TokenExpired, TokenInvalid,
                                 issue_access_token, verify_access_token)
from app.utils import timeutil

CONFIG = Config("sqlite://", "k" * 32, "clinic-portal", 900, 3600, "https://pay.invalid", 60)


@pytest.fixture(autouse=True)
def frozen_clock():
    timeutil.freeze(1_700_000_000)
    yield
    timeutil.freeze(None)


def test_round_trip():
    token, exp = issue_access_token(7, "s1", "patient", CONFIG)
    claims = verify_access_token(token, CONFIG)
    assert claims["sub"] == "7" and claims["sid"] == "s1" and claims["exp"] == exp


def test_expired_token_keeps_its_claims():
    token, exp = issue_access_token(7, "s1", "patient", CONFIG)
    timeutil.freeze(exp + CLOCK_SKEW_SECONDS + 1)
    with pytest.raises(TokenExpired) as info:
        verify_access_token(token, CONFIG)
    assert info.value.claims["sid"] == "s1"


def test_tampered_token_is_invalid():
    token, _ = issue_access_token(7, "s1", "patient", CONFIG)
    head, payload, sig = token.split(".")
    with pytest.raises(TokenInvalid):
        verify_access_token(f"{head}.{payload}x.{sig}", CONFIG)
