'use strict';

const { FixedWindow } = require('./window');
const { TokenBucket } = require('./bucket');

class TenantLimiter {
  constructor(policy) {
    this.policy = policy;
    this.counters = new Map();
  }

  counterFor(key) {
    let c = this.counters.get(key);
    if (!c) {
      c = {
        window: new FixedWindow({ limit: this.policy.limit, size: this.policy.window.size }),
        bucket: new TokenBucket(this.policy.burst),
      };
      this.counters.set(key, c);
    }
    return c;
  }

  check(req) {
    const { policy } = this;
    if (policy.exempt.some((re) => re.test(req.path))) {
      return { decision: 'exempt', key: null };
    }
    const key = policy.keyBy(req);
    if (policy.limit === Infinity) {
      return { decision: 'allow', key, remaining: Infinity };
    }
    const now = req.at;
    const cost = req.cost || 1;
    const c = this.counterFor(key);
    if (c.window.remaining(now) < cost) {
      return { decision: 'deny', key, reason: 'window', remaining: 0, retryAfterMs: c.window.resetAt(now) - now };
    }
    if (!c.bucket.tryTake(now, cost)) {
      return { decision: 'deny', key, reason: 'burst', remaining: c.window.remaining(now), retryAfterMs: c.bucket.waitMs(now, cost) };
    }
    c.window.tryTake(now, cost);
    return { decision: 'allow', key, remaining: c.window.remaining(now) };
  }
}

module.exports = { TenantLimiter };
