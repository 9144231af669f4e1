'use strict';
// Resolves the tenants given as JSON in argv[2] (twice, in order) with the workspace's own
// resolvePolicy and prints what it saw as JSON: the defaults before and after, and each
// resolved policy. Functions, regular expressions and Infinity are shown by name.
// It runs as the sandbox user, started by the broker; it decides nothing. The JSON line goes
// to the real stdout; whatever the workspace's modules print goes to stderr.
const path = require('path');

const emit = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);
console.log = console.error;
console.info = console.error;

const WS = '/workspace';
const { resolvePolicy } = require(path.join(WS, 'lib/policy/resolve.js'));
const { DEFAULT_POLICY } = require(path.join(WS, 'lib/policy/defaults.js'));
const { normalizeTenant } = require(path.join(WS, 'lib/config/normalize.js'));

function show(v) {
  if (typeof v === 'function') return `fn:${v.name}`;
  if (v instanceof RegExp) return `re:${v.source}`;
  if (v === Infinity) return 'Infinity';
  if (Array.isArray(v)) return v.map(show);
  if (v && typeof v === 'object') {
    const o = {};
    for (const k of Object.keys(v).sort()) o[k] = show(v[k]);
    return o;
  }
  return v === undefined ? 'undefined' : v;
}

const raw = JSON.parse(process.argv[2]);
const before = show(DEFAULT_POLICY);
const tenants = raw.map((t, i) => normalizeTenant(t, i));
const first = tenants.map((t) => show(resolvePolicy(t)));
const again = tenants.map((t) => show(resolvePolicy(t)));
const after = show(DEFAULT_POLICY);
emit(JSON.stringify({ before, after, first, again }) + '\n');
