'use strict';

const { ConfigError } = require('./errors');
const { tierNames } = require('../policy/tiers');

const LIMIT_KEYS = new Set(['limit', 'window', 'burst', 'keyBy', 'exempt', 'headers', 'burst_size', 'refill_per_sec']);
const ID = /^[a-z0-9][a-z0-9-]*$/;

function isPositiveInt(v) {
  return Number.isInteger(v) && v > 0;
}

function validateTenant(t, i, seen) {
  const where = `tenants[${i}]`;
  if (t === null || typeof t !== 'object' || Array.isArray(t)) throw new ConfigError('must be an object', where);
  if (typeof t.id !== 'string' || !ID.test(t.id)) throw new ConfigError('id must be lower-case letters, digits and -', `${where}.id`);
  if (seen.has(t.id)) throw new ConfigError(`tenant "${t.id}" is listed twice`, `${where}.id`);
  seen.add(t.id);
  if (t.tier !== undefined && !tierNames().includes(t.tier)) {
    throw new ConfigError(`unknown tier "${t.tier}" (one of: ${tierNames().join(', ')})`, `${where}.tier`);
  }
  const limits = t.limits || {};
  for (const key of Object.keys(limits)) {
    if (!LIMIT_KEYS.has(key)) throw new ConfigError(`unknown setting "${key}"`, `${where}.limits`);
  }
  if (limits.limit !== undefined && limits.limit !== 'unlimited' && !isPositiveInt(limits.limit)) {
    throw new ConfigError('must be a positive integer or "unlimited"', `${where}.limits.limit`);
  }
  const burst = limits.burst || {};
  for (const key of ['size', 'refillPerSec']) {
    if (burst[key] !== undefined && !(typeof burst[key] === 'number' && burst[key] > 0)) {
      throw new ConfigError('must be a positive number', `${where}.limits.burst.${key}`);
    }
  }
  if (limits.exempt !== undefined && !Array.isArray(limits.exempt)) {
    throw new ConfigError('must be a list of patterns', `${where}.limits.exempt`);
  }
}

function validateConfig(doc) {
  if (doc === null || typeof doc !== 'object' || !Array.isArray(doc.tenants)) {
    throw new ConfigError('the file must hold {"tenants": [...]}');
  }
  const seen = new Set();
  doc.tenants.forEach((t, i) => validateTenant(t, i, seen));
  return doc;
}

module.exports = { validateConfig };
