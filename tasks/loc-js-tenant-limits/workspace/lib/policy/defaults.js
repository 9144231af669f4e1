'use strict';

const { byApiKeyOrIp } = require('./keys');

const DEFAULT_POLICY = {
  limit: 60,
  window: { size: 60 * 1000 },
  burst: { size: 10, refillPerSec: 1 },
  keyBy: byApiKeyOrIp,
  exempt: [/^\/health$/, /^\/metrics$/],
  headers: { prefix: 'X-RateLimit', retryAfter: true },
};

module.exports = { DEFAULT_POLICY };
