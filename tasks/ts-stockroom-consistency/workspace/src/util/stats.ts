/** Named counters, printed by `stockroom ... --stats`. */
export class Counters {
  private readonly values = new Map<string, number>();

  add(name: string, by = 1): void {
    this.values.set(name, (this.values.get(name) ?? 0) + by);
  }

  get(name: string): number {
    return this.values.get(name) ?? 0;
  }

  snapshot(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, v] of [...this.values.entries()].sort()) out[k] = v;
    return out;
  }
}
