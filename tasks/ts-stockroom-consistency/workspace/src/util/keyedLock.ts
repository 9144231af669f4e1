/**
 * Runs tasks one at a time per key, in the order they were submitted; tasks of different
 * keys do not wait for each other.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    // A task runs once the previous one has settled, whether it succeeded or failed.
    const current = previous.then(
      () => task(),
      () => task(),
    );
    this.tails.set(key, current);
    const forget = (): void => {
      if (this.tails.get(key) === current) this.tails.delete(key);
    };
    current.then(forget, forget);
    return current;
  }

  /** Runs `task` holding every key of `keys` (taken in sorted order, so two callers never wait on each other). */
  runAll<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const step = (i: number): Promise<T> => (i === sorted.length ? task() : this.run(sorted[i], () => step(i + 1)));
    return step(0);
  }

  busy(key: string): boolean {
    return this.tails.has(key);
  }

  get size(): number {
    return this.tails.size;
  }
}
