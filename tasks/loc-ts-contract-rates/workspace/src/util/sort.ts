export type Comparator<T> = (a: T, b: T) => number;

export function byKey<T, K extends string | number>(key: (item: T) => K): Comparator<T> {
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };
}

export function thenBy<T>(...comparators: Comparator<T>[]): Comparator<T> {
  return (a, b) => {
    for (const c of comparators) {
      const r = c(a, b);
      if (r !== 0) return r;
    }
    return 0;
  };
}

/** A sorted copy; equal items keep their order (Array.prototype.sort is stable since ES2019). */
export function sortedBy<T>(items: readonly T[], comparator: Comparator<T>): T[] {
  return [...items].sort(comparator);
}
