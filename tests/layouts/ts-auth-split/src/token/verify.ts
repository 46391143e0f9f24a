import { AppConfig } from '../config';
import { nowSeconds } from '../utils/clock';
import { JwtFormatError, JwtSignatureError, secondsUntilExp, verifyJwtSignature } from '../utils/jwt';
import { AccessClaims, TokenExpiredError, TokenInvalidError } from './types';

/** Clock skew tolerated between the host that issued a token and this one. */
export const LEEWAY_SECONDS = 30;

export interface VerifyOptions {
  /**
   * Return the claims of a correctly signed token even when `exp` has passed.
   * Callers must then decide themselves whether the token is still acceptable.
   */
  allowExpired?: boolean;
}

export function isExpired(claims: Pick<AccessClaims, 'exp'>, at: number = nowSeconds()): boolean {
  return secondsUntilExp(claims, at) + LEEWAY_SECONDS <= 0;
}

/** Checks signature, issuer, purpose and (unless allowed) expiry of an access token. */
export function verifyAccessToken(
  raw: string,
  config: Pick<AppConfig, 'signingKey' | 'issuer'>,
  options: VerifyOptions = {},
): AccessClaims {
  let claims: AccessClaims;
  try {
    claims = verifyJwtSignature<AccessClaims>(raw, config.signingKey);
  } catch (err) {
    if (err instanceof JwtFormatError || err instanceof JwtSignatureError) {
      throw new TokenInvalidError(err.message);
    }
    throw err;
  }
  if (claims.iss !== config.issuer) {
    throw new TokenInvalidError(`unexpected issuer ${claims.iss}`);
  }
  if (claims.use !== 'access' || typeof claims.sid !== 'string') {
    throw new TokenInvalidError('not an access token');
  }
  if (!options.allowExpired && isExpired(claims)) {
    throw new TokenExpiredError(claims.exp);
  }
  return claims;
}
