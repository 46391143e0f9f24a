import { describe, expect, it } from 'vitest';
import { detectBrand, isCardExpired, tokenizeCard, tokensExpiringWithin } from '../src/billing/payment-token';

describe('payment tokens', () => {
  it('detects card brands', () => {
    expect(detectBrand('4111111111111111')).toBe('visa');
    expect(detectBrand('5500000000000004')).toBe('mastercard');
    expect(detectBrand('340000000000009')).toBe('amex');
  });

  it('treats a card as valid through its expiry month', () => {
    const card = { expiryMonth: 2, expiryYear: 2030 };
    expect(isCardExpired(card, Date.UTC(2030, 1, 28))).toBe(false);
    expect(isCardExpired(card, Date.UTC(2030, 2, 1))).toBe(true);
  });

  it('keeps only the last four digits', () => {
    const token = tokenizeCard('c1', '4111 1111 1111 1111', 12, 2099);
    expect(token.last4).toBe('1111');
    expect(token.token.startsWith('pm_')).toBe(true);
  });

  it('lists cards about to expire', () => {
    const soon = new Date();
    tokenizeCard('c2', '4000000000000002', soon.getUTCMonth() + 1, soon.getUTCFullYear());
    expect(tokensExpiringWithin(62).some((t) => t.customerId === 'c2')).toBe(true);
  });
});
