'use strict';

const { DEFAULT_POLICY } = require('./defaults');
const { tierPreset } = require('./tiers');
const { isPlainObject } = require('./merge');

function resolvePolicy(tenant, defaults = DEFAULT_POLICY) {
  const layers = [tierPreset(tenant.tier), tenant.limits || {}];
  const policy = { ...defaults };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (isPlainObject(value) && isPlainObject(policy[key])) {
        Object.assign(policy[key], value);
      } else {
        policy[key] = value;
      }
    }
  }
  policy.tenant = tenant.id;
  policy.tier = tenant.tier;
  return policy;
}

function resolveAll(tenants, defaults = DEFAULT_POLICY) {
  const policies = new Map();
  for (const tenant of tenants) {
    policies.set(tenant.id, resolvePolicy(tenant, defaults));
  }
  return policies;
}

module.exports = { resolvePolicy, resolveAll };
