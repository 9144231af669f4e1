import { pad } from './internal/text.js';

const STEPS = [['d', 86400000], ['h', 3600000], ['m', 60000], ['s', 1000]];
const UNIT_MS = Object.fromEntries([...STEPS, ['ms', 1]]);

export function formatDuration(ms) {
  if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`formatDuration: bad duration ${ms}`);
  if (ms < 1000) return `${ms}ms`;
  const parts = [];
  let rest = Math.floor(ms / 1000) * 1000;
  for (const [unit, size] of STEPS) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join(' ');
}

export function formatClock(ms) {
  const s = Math.floor(ms / 1000);
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

export function parseDuration(text) {
  const re = /(\d+)\s*(ms|d|h|m|s)/gy;
  const src = String(text).replace(/\s+/g, '');
  let total = 0;
  let at = 0;
  let m;
  while ((m = re.exec(src)) !== null) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    at = re.lastIndex;
  }
  if (at === 0 || at !== src.length) throw new RangeError(`parseDuration: cannot read ${JSON.stringify(text)}`);
  return total;
}
