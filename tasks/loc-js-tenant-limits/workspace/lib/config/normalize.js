'use strict';

const { ConfigError } = require('./errors');
const { parseDuration } = require('../util/duration');
const { keyFunction } = require('../policy/keys');

const LEGACY_KEYS = { burst_size: ['burst', 'size'], refill_per_sec: ['burst', 'refillPerSec'] };

function normalizeLimits(raw, where) {
  const limits = Object.assign({}, raw);
  for (const [legacy, [section, key]] of Object.entries(LEGACY_KEYS)) {
    if (legacy in limits) {
      limits[section] = { ...limits[section], [key]: limits[legacy] };
      delete limits[legacy];
    }
  }
  if (limits.limit === 'unlimited') limits.limit = Infinity;
  if (limits.window && limits.window.size !== undefined) {
    try {
      limits.window = { ...limits.window, size: parseDuration(limits.window.size) };
    } catch (err) {
      throw new ConfigError(err.message, `${where}.window.size`);
    }
  }
  if (limits.keyBy !== undefined) {
    try {
      limits.keyBy = keyFunction(limits.keyBy);
    } catch (err) {
      throw new ConfigError(err.message, `${where}.keyBy`);
    }
  }
  if (limits.exempt !== undefined) {
    limits.exempt = limits.exempt.map((pattern, i) => {
      try {
        return new RegExp(pattern);
      } catch (err) {
        throw new ConfigError(err.message, `${where}.exempt[${i}]`);
      }
    });
  }
  return limits;
}

function normalizeTenant(raw, index = 0) {
  const where = `tenants[${index}]`;
  return {
    id: String(raw.id),
    tier: raw.tier || 'standard',
    limits: normalizeLimits(raw.limits || {}, `${where}.limits`),
  };
}

module.exports = { normalizeTenant, normalizeLimits };
