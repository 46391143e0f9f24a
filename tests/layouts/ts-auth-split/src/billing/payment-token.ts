import { createHash, randomBytes } from 'crypto';
import { nowMs } from '../utils/clock';
import { BadRequestError } from '../utils/errors';

/**
 * Stored payment cards. The card number never reaches our database: the
 * processor hands back a payment token that stands for the card, and we keep
 * the token, the last four digits and the card's expiry date.
 */
export interface PaymentToken {
  token: string;
  customerId: string;
  brand: 'visa' | 'mastercard' | 'amex' | 'other';
  last4: string;
  expiryMonth: number;
  expiryYear: number;
  fingerprint: string;
  createdAt: number;
}

const byToken = new Map<string, PaymentToken>();

export function detectBrand(pan: string): PaymentToken['brand'] {
  if (/^4/.test(pan)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(pan)) return 'mastercard';
  if (/^3[47]/.test(pan)) return 'amex';
  return 'other';
}

/** The card expires at the end of its expiry month. */
export function isCardExpired(token: Pick<PaymentToken, 'expiryMonth' | 'expiryYear'>, at = nowMs()): boolean {
  const firstOfNextMonth = Date.UTC(token.expiryYear, token.expiryMonth, 1);
  return at >= firstOfNextMonth;
}

export function tokenizeCard(
  customerId: string,
  pan: string,
  expiryMonth: number,
  expiryYear: number,
): PaymentToken {
  const digits = pan.replace(/\D/g, '');
  if (digits.length < 12 || digits.length > 19) {
    throw new BadRequestError('card number has the wrong length');
  }
  if (expiryMonth < 1 || expiryMonth > 12) {
    throw new BadRequestError('expiry month must be 1-12');
  }
  const token: PaymentToken = {
    token: `pm_${randomBytes(12).toString('hex')}`,
    customerId,
    brand: detectBrand(digits),
    last4: digits.slice(-4),
    expiryMonth,
    expiryYear,
    fingerprint: createHash('sha256').update(digits).digest('hex').slice(0, 16),
    createdAt: nowMs(),
  };
  if (isCardExpired(token)) {
    throw new BadRequestError('card has expired');
  }
  byToken.set(token.token, token);
  return token;
}

export function findPaymentToken(token: string): PaymentToken | undefined {
  return byToken.get(token);
}

/** Cards that expire within `days`; the reminder job e-mails their owners. */
export function tokensExpiringWithin(days: number, at = nowMs()): PaymentToken[] {
  const horizon = at + days * 24 * 60 * 60 * 1000;
  return [...byToken.values()].filter((t) => !isCardExpired(t, at) && isCardExpired(t, horizon));
}

export function removePaymentToken(token: string): boolean {
  return byToken.delete(token);
}
