export interface SessionRecord {
  id: string;
  userId: string;
  scopes: string[];
  /** Epoch milliseconds. */
  openedAt: number;
  lastSeenAt: number;
  closedAt: number | null;
}

export interface SessionStore {
  get(id: string): Promise<SessionRecord | undefined>;
  put(record: SessionRecord): Promise<void>;
  listByUser(userId: string): Promise<SessionRecord[]>;
}

export class MemorySessionStore implements SessionStore {
  private readonly records = new Map<string, SessionRecord>();

  async get(id: string): Promise<SessionRecord | undefined> {
    const found = this.records.get(id);
    return found ? { ...found } : undefined;
  }

  async put(record: SessionRecord): Promise<void> {
    this.records.set(record.id, { ...record });
  }

  async listByUser(userId: string): Promise<SessionRecord[]> {
    return [...this.records.values()].filter((r) => r.userId === userId).map((r) => ({ ...r }));
  }
}
