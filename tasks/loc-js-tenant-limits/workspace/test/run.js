'use strict';

const assert = require('assert');
const { parseConfig } = require('../lib/config/load');
const { LimiterRegistry } = require('../lib/limiter/registry');
const { parseDuration, formatDuration } = require('../lib/util/duration');
const { rateLimitHeaders } = require('../lib/http/headers');

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

const one = (tenant) => new LimiterRegistry(parseConfig(JSON.stringify({ tenants: [tenant] })));

test('durations', () => {
  assert.strictEqual(parseDuration('30s'), 30000);
  assert.strictEqual(parseDuration('10m'), 600000);
  assert.strictEqual(formatDuration(3600000), '1h');
  assert.throws(() => parseDuration('0s'), RangeError);
});

test('a standard tenant gets the defaults', () => {
  const p = one({ id: 'a', tier: 'standard' }).policy('a');
  assert.strictEqual(p.limit, 60);
  assert.strictEqual(p.burst.size, 10);
  assert.strictEqual(p.window.size, 60000);
});

test('burst denies the eleventh request at once', () => {
  const r = one({ id: 'a' });
  const got = [];
  for (let i = 0; i < 11; i++) got.push(r.check({ at: 1000, tenant: 'a', ip: '10.0.0.1', path: '/x' }).decision);
  assert.deepStrictEqual(got.slice(-2), ['allow', 'deny']);
});

test('health checks are exempt', () => {
  const r = one({ id: 'a' });
  assert.strictEqual(r.check({ at: 0, tenant: 'a', path: '/health' }).decision, 'exempt');
});

test('headers of a denial', () => {
  const r = one({ id: 'a', limits: { limit: 1 } });
  const req = { at: 5000, tenant: 'a', apiKey: 'k', path: '/x' };
  r.check(req);
  const res = r.check(req);
  assert.deepStrictEqual(rateLimitHeaders(r.policy('a'), res),
    { 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0', 'Retry-After': '55' });
});

test('a tier preset applies', () => {
  const p = one({ id: 'b', tier: 'pro' }).policy('b');
  assert.strictEqual(p.limit, 600);
  assert.deepStrictEqual({ ...p.burst }, { size: 50, refillPerSec: 10 });
});

let failed = 0;
for (const { name, fn } of tests) {
  try {
    fn();
    console.log(`ok - ${name}`);
  } catch (err) {
    failed++;
    console.log(`not ok - ${name}\n  ${err.message.split('\n').join('\n  ')}`);
  }
}
console.log(`${tests.length - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
