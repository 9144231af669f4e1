import { Counters } from '../util/stats';
import { LruMap } from './lru';

export type Loader<V> = (key: string) => Promise<V>;

/**
 * Values by key, loaded on first use and kept until invalidated (or pushed out by the LRU
 * bound). Callers asking for a key whose load is in flight share that load.
 */
export class ReadThroughCache<V> {
  private readonly values: LruMap<V>;
  private readonly inflight = new Map<string, Promise<V>>();
  readonly counters = new Counters();

  constructor(
    private readonly loader: Loader<V>,
    capacity = 10_000,
  ) {
    this.values = new LruMap<V>(capacity);
  }

  get(key: string): Promise<V> {
    if (this.values.has(key)) {
      this.counters.add('cache.hit');
      return Promise.resolve(this.values.get(key) as V);
    }
    const pending = this.inflight.get(key);
    if (pending) {
      this.counters.add('cache.shared');
      return pending;
    }
    this.counters.add('cache.miss');
    const load: Promise<V> = this.loader(key).then(
      (value) => {
        if (this.inflight.get(key) === load) {
          this.inflight.delete(key);
          this.values.set(key, value);
        }
        return value;
      },
      (err) => {
        if (this.inflight.get(key) === load) this.inflight.delete(key);
        throw err;
      },
    );
    this.inflight.set(key, load);
    return load;
  }

  /** Forgets the key's value and any load of it in flight (its result may be older than the change). */
  invalidate(key: string): void {
    this.counters.add('cache.invalidated');
    this.values.delete(key);
    this.inflight.delete(key);
  }

  clear(): void {
    this.values.clear();
  }

  get size(): number {
    return this.values.size;
  }
}
