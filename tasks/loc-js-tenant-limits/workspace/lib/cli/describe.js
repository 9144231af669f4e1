'use strict';

const { formatDuration } = require('../util/duration');

function describePolicy(p) {
  return {
    tenant: p.tenant,
    tier: p.tier,
    limit: p.limit === Infinity ? 'unlimited' : p.limit,
    window: { size: formatDuration(p.window.size) },
    burst: { size: p.burst.size, refillPerSec: p.burst.refillPerSec },
    keyBy: p.keyBy.name,
    exempt: p.exempt.map((re) => re.source),
    headers: { prefix: p.headers.prefix, retryAfter: p.headers.retryAfter },
  };
}

function formatPolicy(d) {
  return [
    `${d.tenant} (${d.tier})`,
    `  limit        ${d.limit} per ${d.window.size}`,
    `  burst        ${d.burst.size}, refill ${d.burst.refillPerSec}/s`,
    `  key          ${d.keyBy}`,
    `  exempt       ${d.exempt.join(' ') || '-'}`,
    `  headers      ${d.headers.prefix}-*${d.headers.retryAfter ? ', Retry-After' : ''}`,
  ].join('\n');
}

module.exports = { describePolicy, formatPolicy };
