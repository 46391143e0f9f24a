import { query, queryOne } from '../db/pool';
import { hasExpired, isWithinWindow, daysUntilExpiry } from '../utils/date';
import { NotFoundError, ValidationError } from '../utils/errors';

export interface Coupon {
  code: string;
  percentOff: number;
  validFrom: Date;
  validUntil: Date;
  maxRedemptions: number | null;
  redemptions: number;
}

interface CouponRow {
  code: string;
  percent_off: number;
  valid_from: Date;
  valid_until: Date;
  max_redemptions: number | null;
  redemptions: number;
}

function mapCoupon(row: CouponRow): Coupon {
  return {
    code: row.code,
    percentOff: row.percent_off,
    validFrom: row.valid_from,
    validUntil: row.valid_until,
    maxRedemptions: row.max_redemptions,
    redemptions: row.redemptions,
  };
}

export interface CouponCheck {
  coupon: Coupon;
  discountCents: number;
  expiresInDays: number;
}

export class CouponService {
  async find(code: string): Promise<Coupon> {
    const row = await queryOne<CouponRow>('SELECT * FROM coupons WHERE code = $1', [code.toUpperCase()]);
    if (!row) throw new NotFoundError('coupon', code);
    return mapCoupon(row);
  }

  /** Validates a coupon against an order subtotal and returns the discount it grants. */
  async check(code: string, subtotalCents: number, now: Date = new Date()): Promise<CouponCheck> {
    const coupon = await this.find(code);
    if (hasExpired(coupon.validUntil, now)) {
      throw new ValidationError(`coupon ${coupon.code} has expired`);
    }
    if (!isWithinWindow(coupon.validFrom, coupon.validUntil, now)) {
      throw new ValidationError(`coupon ${coupon.code} is not active yet`);
    }
    if (coupon.maxRedemptions !== null && coupon.redemptions >= coupon.maxRedemptions) {
      throw new ValidationError(`coupon ${coupon.code} has been fully redeemed`);
    }
    return {
      coupon,
      discountCents: Math.floor((subtotalCents * coupon.percentOff) / 100),
      expiresInDays: daysUntilExpiry(coupon.validUntil, now),
    };
  }

  async redeem(code: string): Promise<void> {
    await query('UPDATE coupons SET redemptions = redemptions + 1 WHERE code = $1', [code.toUpperCase()]);
  }

  /** Coupons that expire within `days`, for the marketing reminder email. */
  async expiringSoon(days: number, now: Date = new Date()): Promise<Coupon[]> {
    const rows = await query<CouponRow>(
      `SELECT * FROM coupons
       WHERE valid_until BETWEEN $1::date AND ($1::date + $2::int)
       ORDER BY valid_until`,
      [now.toISOString().slice(0, 10), days],
    );
    return rows.map(mapCoupon).filter((coupon) => !hasExpired(coupon.validUntil, now));
  }
}

export const couponService = new CouponService();
