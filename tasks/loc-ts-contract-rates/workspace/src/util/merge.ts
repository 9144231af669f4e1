import { isPlainObject } from './objects';

/**
 * Merges layers left to right into a new object. Plain objects merge key by key; arrays and
 * every other value replace what an earlier layer had; `undefined` leaves it alone.
 */
export function deepMerge<T>(...layers: ReadonlyArray<Partial<T> | undefined>): T {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [k, v] of Object.entries(layer)) {
      if (v === undefined) continue;
      const prev = out[k];
      out[k] = isPlainObject(v) && isPlainObject(prev) ? deepMerge(prev, v) : isPlainObject(v) ? deepMerge(v) : v;
    }
  }
  return out as T;
}
