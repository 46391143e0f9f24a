/**
 * Calendar helpers used by billing and coupons. All functions work on UTC
 * dates so that invoices and coupon windows do not move with the server
 * timezone.
 */

export const MS_PER_DAY = 24 * 60 * 60 * 1000;

export function startOfDayUtc(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export function endOfDayUtc(date: Date): Date {
  return new Date(startOfDayUtc(date).getTime() + MS_PER_DAY - 1);
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * MS_PER_DAY);
}

export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

export function daysBetween(from: Date, to: Date): number {
  return Math.round((startOfDayUtc(to).getTime() - startOfDayUtc(from).getTime()) / MS_PER_DAY);
}

/**
 * A coupon or promotion expires at the end of its last valid day, so a code
 * valid "until 2024-03-31" can still be redeemed at 23:59 UTC on that day.
 */
export function hasExpired(validUntil: Date, now: Date = new Date()): boolean {
  return now.getTime() > endOfDayUtc(validUntil).getTime();
}

export function isWithinWindow(validFrom: Date, validUntil: Date, now: Date = new Date()): boolean {
  return now.getTime() >= startOfDayUtc(validFrom).getTime() && !hasExpired(validUntil, now);
}

export function daysUntilExpiry(validUntil: Date, now: Date = new Date()): number {
  return Math.max(0, daysBetween(now, validUntil));
}

export function formatIsoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function parseIsoDate(value: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    throw new RangeError(`Expected a YYYY-MM-DD date, got "${value}"`);
  }
  const parsed = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(parsed.getTime())) {
    throw new RangeError(`Invalid calendar date "${value}"`);
  }
  return parsed;
}
