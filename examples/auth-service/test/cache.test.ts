import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TtlCache } from '../src/utils/cache';

function fakeClock(start = 1_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

test('entries disappear after their ttl', () => {
  const clock = fakeClock();
  const cache = new TtlCache<string, number>({ ttlMs: 100, maxEntries: 10, now: clock.now });
  cache.set('a', 1);
  clock.advance(99);
  assert.equal(cache.get('a'), 1);
  clock.advance(1);
  assert.equal(cache.get('a'), undefined);
});

test('a per-entry ttl overrides the default', () => {
  const clock = fakeClock();
  const cache = new TtlCache<string, number>({ ttlMs: 100, maxEntries: 10, now: clock.now });
  cache.set('long', 1, 1_000);
  clock.advance(500);
  assert.equal(cache.get('long'), 1);
});

test('least recently used entry is evicted first', () => {
  const cache = new TtlCache<string, number>({ ttlMs: 1_000, maxEntries: 2 });
  cache.set('a', 1);
  cache.set('b', 2);
  cache.get('a');
  cache.set('c', 3);
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.get('a'), 1);
  assert.equal(cache.get('c'), 3);
});

test('getOrLoad only calls the loader on a miss', async () => {
  const cache = new TtlCache<string, string>({ ttlMs: 1_000, maxEntries: 10 });
  let calls = 0;
  const loader = async () => {
    calls++;
    return 'value';
  };
  assert.equal(await cache.getOrLoad('k', loader), 'value');
  assert.equal(await cache.getOrLoad('k', loader), 'value');
  assert.equal(calls, 1);
  assert.deepEqual(cache.stats(), { size: 1, hits: 1, misses: 1 });
});

test('purgeStale removes only stale entries', () => {
  const clock = fakeClock();
  const cache = new TtlCache<string, number>({ ttlMs: 100, maxEntries: 10, now: clock.now });
  cache.set('old', 1);
  clock.advance(50);
  cache.set('new', 2);
  clock.advance(60);
  assert.equal(cache.purgeStale(), 1);
  assert.equal(cache.get('new'), 2);
});
