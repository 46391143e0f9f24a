import pytest

from hub.core.tokens.issue import mint_access_token
from hub.core.tokens.verify import (LEEWAY_SECONDS, AccessTokenExpired, AccessTokenInvalid,
                                    verify_access_token)
from hub.lib import clock
from hub.settings import Settings

SETTINGS = Settings(secret_key="s" * 32, database_dsn="postgresql://unused")


@pytest.fixture
def at():
    moment = [1_800_000_000.0]
    clock.set_source(lambda: moment[0])
    yield moment
    clock.set_source(None)


def test_fresh_token(at):
    claims = verify_access_token(mint_access_token(5, "abc", ["member"], SETTINGS), SETTINGS)
    assert claims["sub"] == "5" and claims["sid"] == "abc"


def test_expired_token_carries_claims(at):
    token = mint_access_token(5, "abc", ["member"], SETTINGS)
    at[0] += SETTINGS.access_token_seconds + LEEWAY_SECONDS + 1
    with pytest.raises(AccessTokenExpired) as info:
        verify_access_token(token, SETTINGS)
    assert info.value.claims["sid"] == "abc"


def test_wrong_secret(at):
    token = mint_access_token(5, "abc", ["member"], Settings("t" * 32, "postgresql://unused"))
    with pytest.raises(AccessTokenInvalid):
        verify_access_token(token, SETTINGS)
