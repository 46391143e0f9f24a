import { createHmac, timingSafeEqual } from 'crypto';

/**
 * Minimal HS256 JWT implementation. We only ever sign and verify our own
 * tokens, so supporting a single algorithm keeps the attack surface small.
 *
 * Access and refresh tokens (see tokens.ts) are both HS256 JWTs signed with
 * the same secret; the `typ` claim tells an access jwt from a refresh jwt.
 *
 * All JWT time claims (`iat`, `nbf`, `exp`) are NumericDate values, i.e.
 * seconds since the Unix epoch (RFC 7519 section 2).
 */

export type JwtAlgorithm = 'HS256';

export interface JwtHeader {
  alg: JwtAlgorithm;
  typ: 'JWT';
}

export interface JwtClaims {
  sub: string;
  iat?: number;
  nbf?: number;
  exp?: number;
  iss?: string;
  jti?: string;
  /** 'access' or 'refresh'; set by tokens.ts. */
  typ?: string;
  [claim: string]: unknown;
}

export interface DecodedJwt<C extends JwtClaims = JwtClaims> {
  header: JwtHeader;
  claims: C;
  signature: string;
  signingInput: string;
}

export interface SignJwtOptions {
  /** Lifetime of the jwt; ignored when the claims already carry `exp`. */
  expiresInSeconds?: number;
  issuer?: string;
}

export interface VerifyJwtOptions {
  issuer?: string;
  /** Tolerance applied to `exp` and `nbf` to absorb clock drift between hosts. */
  clockSkewSeconds?: number;
  /**
   * Skip the `exp` check, e.g. to read the session id out of an expired access
   * jwt during logout. Never use this for a refresh jwt.
   */
  ignoreExpiration?: boolean;
  /** Override the current time (seconds since epoch); used by tests. */
  nowSeconds?: number;
}

export const DEFAULT_CLOCK_SKEW_SECONDS = 30;

export class JwtError extends Error {
  constructor(message: string, public readonly code: string = 'JWT_INVALID') {
    super(message);
    this.name = 'JwtError';
  }
}

export class JwtExpiredError extends JwtError {
  constructor(public readonly expiredAt: Date) {
    super(`jwt expired at ${expiredAt.toISOString()}`, 'JWT_EXPIRED');
    this.name = 'JwtExpiredError';
  }
}

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function base64UrlEncode(value: string): string {
  return Buffer.from(value, 'utf8').toString('base64url');
}

function base64UrlDecode(value: string): string {
  return Buffer.from(value, 'base64url').toString('utf8');
}

function hmacSha256(input: string, secret: string): string {
  return createHmac('sha256', secret).update(input).digest('base64url');
}

function constantTimeEquals(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function signJwt(claims: JwtClaims, secret: string, options: SignJwtOptions = {}): string {
  const iat = claims.iat ?? nowInSeconds();
  const payload: JwtClaims = { ...claims, iat };
  if (payload.exp === undefined && options.expiresInSeconds !== undefined) {
    payload.exp = iat + options.expiresInSeconds;
  }
  if (options.issuer !== undefined && payload.iss === undefined) {
    payload.iss = options.issuer;
  }
  const header: JwtHeader = { alg: 'HS256', typ: 'JWT' };
  const signingInput = `${base64UrlEncode(JSON.stringify(header))}.${base64UrlEncode(JSON.stringify(payload))}`;
  return `${signingInput}.${hmacSha256(signingInput, secret)}`;
}

/**
 * Decodes a jwt without checking its signature. Only use the result for
 * display or routing decisions, never for authorization.
 */
export function decodeJwt<C extends JwtClaims = JwtClaims>(token: string): DecodedJwt<C> {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => part.length === 0)) {
    throw new JwtError('jwt malformed', 'JWT_MALFORMED');
  }
  const [encodedHeader, encodedClaims, signature] = parts;
  try {
    const header = JSON.parse(base64UrlDecode(encodedHeader)) as JwtHeader;
    const claims = JSON.parse(base64UrlDecode(encodedClaims)) as C;
    return { header, claims, signature, signingInput: `${encodedHeader}.${encodedClaims}` };
  } catch {
    throw new JwtError('jwt malformed', 'JWT_MALFORMED');
  }
}

export function isJwtExpired(
  claims: Pick<JwtClaims, 'exp'>,
  clockSkewSeconds: number = DEFAULT_CLOCK_SKEW_SECONDS,
  now: number = nowInSeconds(),
): boolean {
  if (claims.exp === undefined) return false;
  return now >= claims.exp + clockSkewSeconds;
}

/** Lets callers refresh a jwt shortly before it runs out instead of after a 401. */
export function secondsUntilExpiry(claims: Pick<JwtClaims, 'exp'>, now: number = nowInSeconds()): number {
  if (claims.exp === undefined) return Number.POSITIVE_INFINITY;
  return Math.max(0, claims.exp - now);
}

export function verifyJwt<C extends JwtClaims = JwtClaims>(
  token: string,
  secret: string,
  options: VerifyJwtOptions = {},
): C {
  const decoded = decodeJwt<C>(token);
  if (decoded.header.alg !== 'HS256' || decoded.header.typ !== 'JWT') {
    throw new JwtError(`unsupported jwt header ${JSON.stringify(decoded.header)}`, 'JWT_ALGORITHM');
  }
  if (!constantTimeEquals(hmacSha256(decoded.signingInput, secret), decoded.signature)) {
    throw new JwtError('invalid jwt signature', 'JWT_SIGNATURE');
  }

  const { claims } = decoded;
  const skew = options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  const now = options.nowSeconds ?? nowInSeconds();

  if (claims.nbf !== undefined && now + skew < claims.nbf) {
    throw new JwtError('jwt not active yet', 'JWT_NOT_BEFORE');
  }
  if (!options.ignoreExpiration && isJwtExpired(claims, skew, now)) {
    throw new JwtExpiredError(new Date((claims.exp as number) * 1000));
  }
  if (options.issuer !== undefined && claims.iss !== options.issuer) {
    throw new JwtError(`jwt issuer mismatch: expected ${options.issuer}`, 'JWT_ISSUER');
  }
  if (typeof claims.sub !== 'string' || claims.sub.length === 0) {
    throw new JwtError('jwt is missing a subject', 'JWT_SUBJECT');
  }
  return claims;
}
