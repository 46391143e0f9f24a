import { nowMs } from '../utils/clock';

interface Entry<V> {
  value: V;
  /** Epoch ms after which the entry is stale. */
  expiresAt: number;
}

/**
 * A small map whose entries expire. Used for customer summaries and the
 * invoice totals dashboard; not shared between processes.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: K, value: V, ttlMs = this.ttlMs): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: nowMs() + ttlMs });
  }

  /** Removes expired entries; returns how many went. */
  prune(): number {
    const at = nowMs();
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= at) {
        this.entries.delete(key);
        removed++;
      }
    }
    return removed;
  }

  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    this.set(key, value);
    return value;
  }
}
