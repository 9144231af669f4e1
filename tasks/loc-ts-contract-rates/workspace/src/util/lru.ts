export interface CacheStats {
  hits: number;
  misses: number;
  evictions: number;
}

/** A bounded map that forgets the least recently used entry first. */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();
  private readonly counters: CacheStats = { hits: 0, misses: 0, evictions: 0 };

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('LruCache: capacity must be a positive integer');
  }

  get(key: string): V | undefined {
    if (!this.entries.has(key)) {
      this.counters.misses++;
      return undefined;
    }
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    this.counters.hits++;
    return value;
  }

  set(key: string, value: V): void {
    if (this.entries.has(key)) this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.counters.evictions++;
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  stats(): CacheStats {
    return { ...this.counters };
  }
}
