import { createHmac, timingSafeEqual } from 'crypto';

/** Registered claims this service relies on. Times are seconds since the epoch. */
export interface JwtPayload {
  sub: string;
  iss: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

export class JwtFormatError extends Error {}
export class JwtSignatureError extends Error {}

const HEADER = { alg: 'HS256', typ: 'JWT' };

function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

function fromBase64url(segment: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) {
    throw new JwtFormatError('segment is not base64url');
  }
  return Buffer.from(segment, 'base64url');
}

function hmac(key: string, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

export function signJwt(payload: JwtPayload, key: string): string {
  const head = base64url(JSON.stringify(HEADER));
  const body = base64url(JSON.stringify(payload));
  const signature = base64url(hmac(key, `${head}.${body}`));
  return `${head}.${body}.${signature}`;
}

/** Splits and parses a compact JWT without checking anything. */
export function decodeJwt<T extends JwtPayload = JwtPayload>(jwt: string): { header: unknown; payload: T } {
  const parts = jwt.split('.');
  if (parts.length !== 3) {
    throw new JwtFormatError(`expected 3 segments, got ${parts.length}`);
  }
  try {
    const header = JSON.parse(fromBase64url(parts[0]).toString('utf8'));
    const payload = JSON.parse(fromBase64url(parts[1]).toString('utf8')) as T;
    return { header, payload };
  } catch (err) {
    if (err instanceof JwtFormatError) throw err;
    throw new JwtFormatError('segment is not JSON');
  }
}

/** Checks the HS256 signature and returns the payload. Does not look at `exp`. */
export function verifyJwtSignature<T extends JwtPayload = JwtPayload>(jwt: string, key: string): T {
  const { header, payload } = decodeJwt<T>(jwt);
  if ((header as { alg?: string }).alg !== HEADER.alg) {
    throw new JwtFormatError('unexpected alg');
  }
  const [head, body, signature] = jwt.split('.');
  const expected = hmac(key, `${head}.${body}`);
  const given = fromBase64url(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new JwtSignatureError('bad signature');
  }
  return payload;
}

/** Seconds left before `exp`, negative once it has passed. */
export function secondsUntilExp(payload: Pick<JwtPayload, 'exp'>, nowSeconds: number): number {
  return payload.exp - nowSeconds;
}
