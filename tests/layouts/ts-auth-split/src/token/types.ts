import { JwtPayload } from '../utils/jwt';

export type TokenUse = 'access';

export interface AccessClaims extends JwtPayload {
  /** Session the token was minted for. */
  sid: string;
  use: TokenUse;
  scopes: string[];
}

export interface IssuedAccessToken {
  value: string;
  /** Epoch seconds, copied from the `exp` claim. */
  exp: number;
}

export class TokenExpiredError extends Error {
  constructor(readonly expiredAt: number) {
    super(`access token expired at ${new Date(expiredAt * 1000).toISOString()}`);
  }
}

export class TokenInvalidError extends Error {}
