"""Access tokens: `issue` mints them, `verify` checks them."""

from hub.core.tokens.issue import mint_access_token
from hub.core.tokens.verify import AccessTokenExpired, AccessTokenInvalid, verify_access_token

__all__ = ["mint_access_token", "verify_access_token", "AccessTokenExpired", "AccessTokenInvalid"]
