export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(iso: string): Clock {
  const at = new Date(iso);
  return { now: () => new Date(at.getTime()) };
}

export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}
