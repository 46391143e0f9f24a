import { randomUUID } from 'crypto';
import { nowMs } from '../utils/clock';
import { log } from '../utils/logger';
import { SessionRecord, SessionStore } from './store';

export interface SessionPolicy {
  /** A session closes after this long without a request. */
  idleMs: number;
  /** ...and after this long in any case. */
  maxAgeMs: number;
}

/**
 * Login sessions. Access tokens carry the session id (`sid`); a token is only
 * honoured while its session is open, so closing a session signs the user out
 * everywhere it was used.
 */
export class SessionManager {
  private readonly cache = new Map<string, SessionRecord>();

  constructor(
    private readonly store: SessionStore,
    private readonly policy: SessionPolicy,
  ) {}

  async open(userId: string, scopes: string[]): Promise<SessionRecord> {
    const at = nowMs();
    const record: SessionRecord = {
      id: randomUUID(),
      userId,
      scopes,
      openedAt: at,
      lastSeenAt: at,
      closedAt: null,
    };
    await this.store.put(record);
    this.cache.set(record.id, record);
    log.info('session opened', { sessionId: record.id, userId });
    return record;
  }

  /** Loads a session into the cache; call before isOpen for ids not seen yet. */
  async load(id: string): Promise<SessionRecord | undefined> {
    const record = this.cache.get(id) ?? (await this.store.get(id));
    if (record) this.cache.set(id, record);
    return record;
  }

  /**
   * Whether the session was open at `atMs` (epoch milliseconds, default now):
   * not closed before it, not idle for longer than the policy allows, and not
   * older than its maximum age.
   */
  isOpen(id: string, atMs: number = nowMs()): boolean {
    const record = this.cache.get(id);
    if (!record) return false;
    if (record.closedAt !== null && record.closedAt <= atMs) return false;
    if (atMs - record.lastSeenAt > this.policy.idleMs) return false;
    return atMs - record.openedAt <= this.policy.maxAgeMs;
  }

  async touch(id: string): Promise<void> {
    const record = this.cache.get(id);
    if (!record) return;
    record.lastSeenAt = nowMs();
    await this.store.put(record);
  }

  async close(id: string): Promise<void> {
    const record = await this.load(id);
    if (!record || record.closedAt !== null) return;
    record.closedAt = nowMs();
    await this.store.put(record);
    log.info('session closed', { sessionId: id });
  }

  async closeAllFor(userId: string): Promise<number> {
    const open = (await this.store.listByUser(userId)).filter((r) => r.closedAt === null);
    await Promise.all(open.map((r) => this.close(r.id)));
    return open.length;
  }
}
