import { afterEach, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../src/token/issue';
import { TokenExpiredError, TokenInvalidError } from '../src/token/types';
import { isExpired, LEEWAY_SECONDS, verifyAccessToken } from '../src/token/verify';
import { freezeClock, unfreezeClock } from '../src/utils/clock';

const config = {
  signingKey: 'k'.repeat(32),
  issuer: 'ledger-api',
  accessTtlSeconds: 900,
};
const subject = { userId: 'u1', sessionId: 's1', scopes: ['invoices:read'] };

describe('verifyAccessToken', () => {
  afterEach(() => unfreezeClock());

  it('returns the claims of a fresh token', () => {
    const { value } = issueAccessToken(subject, config);
    const claims = verifyAccessToken(value, config);
    expect(claims.sub).toBe('u1');
    expect(claims.sid).toBe('s1');
  });

  it('rejects a token past exp plus leeway', () => {
    freezeClock(Date.UTC(2024, 0, 1));
    const { value } = issueAccessToken(subject, config);
    freezeClock(Date.UTC(2024, 0, 1) + (900 + LEEWAY_SECONDS + 1) * 1000);
    expect(() => verifyAccessToken(value, config)).toThrow(TokenExpiredError);
    expect(verifyAccessToken(value, config, { allowExpired: true }).sid).toBe('s1');
  });

  it('rejects another issuer', () => {
    const { value } = issueAccessToken(subject, { ...config, issuer: 'someone-else' });
    expect(() => verifyAccessToken(value, config)).toThrow(TokenInvalidError);
  });

  it('isExpired honours the leeway', () => {
    expect(isExpired({ exp: 1000 }, 1000)).toBe(false);
    expect(isExpired({ exp: 1000 }, 1000 + LEEWAY_SECONDS)).toBe(true);
  });
});
