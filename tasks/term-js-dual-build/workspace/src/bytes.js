import round from './internal/round.js';
import { trimZeros } from './internal/text.js';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

export const BYTE_UNITS = Object.freeze(UNITS.slice());

export function formatBytes(bytes, { digits = 1 } = {}) {
  if (!Number.isFinite(bytes)) throw new TypeError(`formatBytes: not a finite number: ${bytes}`);
  const sign = bytes < 0 ? '-' : '';
  let n = Math.abs(bytes);
  let i = 0;
  while (n >= 1024 && i < UNITS.length - 1) {
    n /= 1024;
    i += 1;
  }
  const places = i === 0 ? 0 : digits;
  return `${sign}${trimZeros(round(n, places).toFixed(places))} ${UNITS[i]}`;
}

export function parseBytes(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGTP]i?B|B)?\s*$/.exec(String(text));
  if (!m) throw new RangeError(`parseBytes: cannot read ${JSON.stringify(text)}`);
  const unit = (m[2] || 'B').replace(/^([KMGTP])B$/, '$1iB');
  return Math.round(Number(m[1]) * 1024 ** UNITS.indexOf(unit));
}
