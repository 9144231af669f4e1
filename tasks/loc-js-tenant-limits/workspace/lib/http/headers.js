'use strict';

const { deepMerge } = require('../policy/merge');

function rateLimitHeaders(policy, result, overrides) {
  const opts = deepMerge(policy.headers, overrides);
  const out = {};
  if (result.decision === 'exempt' || policy.limit === Infinity) return out;
  out[`${opts.prefix}-Limit`] = String(policy.limit);
  out[`${opts.prefix}-Remaining`] = String(result.remaining);
  if (result.decision === 'deny' && opts.retryAfter) {
    out['Retry-After'] = String(Math.max(1, Math.ceil(result.retryAfterMs / 1000)));
  }
  return out;
}

module.exports = { rateLimitHeaders };
