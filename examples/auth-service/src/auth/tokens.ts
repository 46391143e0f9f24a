import { createHash, randomBytes } from 'crypto';
import { config } from '../config';
import {
  decodeJwt,
  isJwtExpired,
  JwtClaims,
  JwtError,
  secondsUntilExpiry,
  signJwt,
  verifyJwt,
} from './jwt-utils';

export type TokenType = 'access' | 'refresh';

export interface AccessTokenClaims extends JwtClaims {
  typ: 'access';
  sid: string;
  role: string;
}

export interface RefreshTokenClaims extends JwtClaims {
  typ: 'refresh';
  sid: string;
  jti: string;
}

export interface TokenSubject {
  userId: string;
  sessionId: string;
  role: string;
}

export interface IssuedToken {
  token: string;
  type: TokenType;
  /** Expiry as epoch milliseconds, handy for clients and for session bookkeeping. */
  expiresAt: number;
}

export interface TokenPair {
  accessToken: IssuedToken;
  refreshToken: IssuedToken;
}

/** Refresh the access token proactively when it has less than this many seconds left. */
export const REFRESH_THRESHOLD_SECONDS = 60;

export function computeExpiresAt(ttlSeconds: number, issuedAtMs: number = Date.now()): number {
  return issuedAtMs + ttlSeconds * 1000;
}

export function issueAccessToken(subject: TokenSubject): IssuedToken {
  const expiresAt = computeExpiresAt(config.auth.accessTokenTtlSeconds);
  const claims: AccessTokenClaims = {
    sub: subject.userId,
    sid: subject.sessionId,
    role: subject.role,
    typ: 'access',
    exp: expiresAt,
  };
  const token = signJwt(claims, config.auth.jwtSecret, { issuer: config.auth.jwtIssuer });
  return { token, type: 'access', expiresAt };
}

export function issueRefreshToken(subject: TokenSubject): IssuedToken {
  const ttlSeconds = config.auth.refreshTokenTtlSeconds;
  const claims: RefreshTokenClaims = {
    sub: subject.userId,
    sid: subject.sessionId,
    typ: 'refresh',
    jti: randomBytes(16).toString('hex'),
  };
  const token = signJwt(claims, config.auth.jwtSecret, {
    issuer: config.auth.jwtIssuer,
    expiresInSeconds: ttlSeconds,
  });
  return { token, type: 'refresh', expiresAt: computeExpiresAt(ttlSeconds) };
}

export function issueTokenPair(subject: TokenSubject): TokenPair {
  return {
    accessToken: issueAccessToken(subject),
    refreshToken: issueRefreshToken(subject),
  };
}

function verifyTyped<C extends JwtClaims>(token: string, expected: TokenType): C {
  const claims = verifyJwt<C>(token, config.auth.jwtSecret, {
    issuer: config.auth.jwtIssuer,
    clockSkewSeconds: config.auth.clockSkewSeconds,
  });
  if (claims.typ !== expected) {
    throw new JwtError(`expected a ${expected} token but got ${String(claims.typ)}`, 'JWT_TYPE');
  }
  return claims;
}

export function verifyAccessToken(token: string): AccessTokenClaims {
  return verifyTyped<AccessTokenClaims>(token, 'access');
}

export function verifyRefreshToken(token: string): RefreshTokenClaims {
  return verifyTyped<RefreshTokenClaims>(token, 'refresh');
}

/**
 * Issues a new access token for the session a refresh token belongs to,
 * leaving the refresh token itself untouched (used when rotation is off).
 */
export function refreshAccessToken(refreshToken: string, role: string): IssuedToken {
  const claims = verifyRefreshToken(refreshToken);
  return issueAccessToken({ userId: claims.sub, sessionId: claims.sid, role });
}

/** Checks expiry without verifying the signature, e.g. on tokens we already trust. */
export function isExpired(token: string, nowMs: number = Date.now()): boolean {
  const { claims } = decodeJwt(token);
  return isJwtExpired(claims, 0, Math.floor(nowMs / 1000));
}

export function needsRefresh(token: string, thresholdSeconds: number = REFRESH_THRESHOLD_SECONDS): boolean {
  const { claims } = decodeJwt(token);
  return secondsUntilExpiry(claims) <= thresholdSeconds;
}

/** Refresh tokens are stored hashed so a leaked sessions table cannot be replayed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
