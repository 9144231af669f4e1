'use strict';

const UNITS = { ms: 1, s: 1000, m: 60 * 1000, h: 60 * 60 * 1000 };

function parseDuration(text) {
  if (typeof text === 'number' && Number.isFinite(text) && text > 0) return text;
  const m = /^(\d+)(ms|s|m|h)$/.exec(String(text).trim());
  if (!m || Number(m[1]) === 0) {
    throw new RangeError(`not a duration: ${JSON.stringify(text)} (use e.g. 30s, 1m, 10m, 1h)`);
  }
  return Number(m[1]) * UNITS[m[2]];
}

function formatDuration(ms) {
  for (const unit of ['h', 'm', 's']) {
    if (ms % UNITS[unit] === 0) return `${ms / UNITS[unit]}${unit}`;
  }
  return `${ms}ms`;
}

module.exports = { parseDuration, formatDuration };
