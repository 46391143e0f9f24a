import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addDays,
  addMonths,
  daysBetween,
  daysUntilExpiry,
  hasExpired,
  isWithinWindow,
  parseIsoDate,
} from '../src/utils/date';

test('addDays crosses month boundaries', () => {
  assert.equal(addDays(parseIsoDate('2024-01-30'), 3).toISOString().slice(0, 10), '2024-02-02');
});

test('addMonths clamps to the last day of the month', () => {
  assert.equal(addMonths(parseIsoDate('2024-01-31'), 1).toISOString().slice(0, 10), '2024-02-29');
  assert.equal(addMonths(parseIsoDate('2023-01-31'), 1).toISOString().slice(0, 10), '2023-02-28');
});

test('daysBetween ignores the time of day', () => {
  const from = new Date('2024-03-01T23:00:00Z');
  const to = new Date('2024-03-03T01:00:00Z');
  assert.equal(daysBetween(from, to), 2);
});

test('a coupon is still valid during its last day', () => {
  const validUntil = parseIsoDate('2024-03-31');
  assert.equal(hasExpired(validUntil, new Date('2024-03-31T23:59:00Z')), false);
  assert.equal(hasExpired(validUntil, new Date('2024-04-01T00:00:01Z')), true);
});

test('isWithinWindow respects the start date', () => {
  const from = parseIsoDate('2024-05-01');
  const until = parseIsoDate('2024-05-31');
  assert.equal(isWithinWindow(from, until, new Date('2024-04-30T12:00:00Z')), false);
  assert.equal(isWithinWindow(from, until, new Date('2024-05-15T12:00:00Z')), true);
});

test('daysUntilExpiry never goes negative', () => {
  assert.equal(daysUntilExpiry(parseIsoDate('2024-01-01'), new Date('2024-02-01T00:00:00Z')), 0);
  assert.equal(daysUntilExpiry(parseIsoDate('2024-01-10'), new Date('2024-01-01T08:00:00Z')), 9);
});

test('parseIsoDate rejects other formats', () => {
  assert.throws(() => parseIsoDate('01/02/2024'), RangeError);
});
