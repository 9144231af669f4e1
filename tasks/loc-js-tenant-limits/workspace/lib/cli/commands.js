'use strict';

const fs = require('fs');
const { loadConfig } = require('../config/load');
const { LimiterRegistry } = require('../limiter/registry');
const { rateLimitHeaders } = require('../http/headers');
const { describePolicy, formatPolicy } = require('./describe');

function plan(opts, out) {
  const registry = new LimiterRegistry(loadConfig(opts.config));
  const ids = opts.tenant ? [opts.tenant] : [...registry.policies.keys()];
  const described = ids.map((id) => describePolicy(registry.policy(id)));
  if (opts.json) {
    out.write(JSON.stringify(described, null, 2) + '\n');
  } else {
    out.write(described.map(formatPolicy).join('\n\n') + '\n');
  }
}

function readRequests(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((line, i) => {
    try {
      return JSON.parse(line);
    } catch (err) {
      throw new SyntaxError(`${file}:${i + 1}: ${err.message}`);
    }
  });
}

function simulate(opts, out) {
  if (!opts.requests) throw new RangeError('simulate needs --requests FILE');
  const registry = new LimiterRegistry(loadConfig(opts.config));
  for (const req of readRequests(opts.requests)) {
    const result = registry.check(req);
    const headers = rateLimitHeaders(registry.policy(req.tenant), result);
    const shown = Object.entries(headers).map(([k, v]) => `${k}=${v}`).join(' ');
    out.write(`${req.at} ${req.tenant} ${result.key || '-'} ${result.decision}${result.reason ? ` (${result.reason})` : ''}${shown ? ' ' + shown : ''}\n`);
  }
}

module.exports = { plan, simulate, COMMANDS: { plan, simulate } };
