/**
 * Tiny in-memory document collection. It mimics the subset of a repository
 * API the services need, so swapping in a real database later only touches
 * this folder.
 */
export class Collection<T extends { id: string }> {
  private readonly items = new Map<string, T>();

  constructor(readonly name: string) {}

  insert(item: T): T {
    if (this.items.has(item.id)) {
      throw new Error(`${this.name}: duplicate id ${item.id}`);
    }
    this.items.set(item.id, structuredClone(item));
    return structuredClone(item);
  }

  findById(id: string): T | undefined {
    const item = this.items.get(id);
    return item === undefined ? undefined : structuredClone(item);
  }

  findOne(predicate: (item: T) => boolean): T | undefined {
    for (const item of this.items.values()) {
      if (predicate(item)) return structuredClone(item);
    }
    return undefined;
  }

  find(predicate: (item: T) => boolean = () => true): T[] {
    const result: T[] = [];
    for (const item of this.items.values()) {
      if (predicate(item)) result.push(structuredClone(item));
    }
    return result;
  }

  update(id: string, changes: Partial<T>): T | undefined {
    const current = this.items.get(id);
    if (current === undefined) return undefined;
    const next = { ...current, ...changes, id };
    this.items.set(id, next);
    return structuredClone(next);
  }

  delete(id: string): boolean {
    return this.items.delete(id);
  }

  count(predicate?: (item: T) => boolean): number {
    return predicate ? this.find(predicate).length : this.items.size;
  }

  clear(): void {
    this.items.clear();
  }
}
