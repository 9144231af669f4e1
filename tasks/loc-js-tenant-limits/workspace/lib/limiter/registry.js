'use strict';

const { resolveAll } = require('../policy/resolve');
const { TenantLimiter } = require('./limiter');

class LimiterRegistry {
  constructor(config) {
    this.policies = resolveAll(config.tenants);
    this.limiters = new Map();
  }

  policy(tenantId) {
    const p = this.policies.get(tenantId);
    if (!p) throw new RangeError(`unknown tenant "${tenantId}"`);
    return p;
  }

  limiterFor(tenantId) {
    let limiter = this.limiters.get(tenantId);
    if (!limiter) {
      limiter = new TenantLimiter(this.policy(tenantId));
      this.limiters.set(tenantId, limiter);
    }
    return limiter;
  }

  check(req) {
    return this.limiterFor(req.tenant).check(req);
  }
}

module.exports = { LimiterRegistry };
