import { afterEach, describe, expect, it } from 'vitest';
import { TtlCache } from '../src/cache/ttl-cache';
import { freezeClock, unfreezeClock } from '../src/utils/clock';

describe('TtlCache', () => {
  afterEach(() => unfreezeClock());

  it('forgets entries after their ttl', () => {
    freezeClock(0);
    const cache = new TtlCache<string, number>(1000);
    cache.set('a', 1);
    freezeClock(999);
    expect(cache.get('a')).toBe(1);
    freezeClock(1000);
    expect(cache.get('a')).toBeUndefined();
  });

  it('evicts the oldest entry when full', () => {
    const cache = new TtlCache<string, number>(60_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe(3);
  });

  it('loads a missing value once', async () => {
    const cache = new TtlCache<string, number>(60_000);
    let calls = 0;
    const load = async () => ++calls;
    await cache.getOrLoad('k', load);
    await cache.getOrLoad('k', load);
    expect(calls).toBe(1);
  });
});
