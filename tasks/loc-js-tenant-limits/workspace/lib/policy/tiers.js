'use strict';

const { ConfigError } = require('../config/errors');

const TIERS = {
  standard: {},
  pro: { limit: 600, burst: { size: 50, refillPerSec: 10 } },
  batch: { limit: 120, window: { size: 10 * 60 * 1000 }, burst: { refillPerSec: 5 } },
  internal: { limit: Infinity, headers: { retryAfter: false } },
};

function tierNames() {
  return Object.keys(TIERS);
}

function tierPreset(name) {
  if (!Object.prototype.hasOwnProperty.call(TIERS, name)) {
    throw new ConfigError(`unknown tier "${name}" (one of: ${tierNames().join(', ')})`);
  }
  return TIERS[name];
}

module.exports = { tierPreset, tierNames };
