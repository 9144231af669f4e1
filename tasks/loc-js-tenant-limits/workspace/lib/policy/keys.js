'use strict';

function byApiKey(req) {
  return req.apiKey ? `key:${req.apiKey}` : 'key:anonymous';
}

function byIp(req) {
  return `ip:${req.ip || 'unknown'}`;
}

function byApiKeyOrIp(req) {
  return req.apiKey ? byApiKey(req) : byIp(req);
}

const KEY_FUNCTIONS = { apiKey: byApiKey, ip: byIp, apiKeyOrIp: byApiKeyOrIp };

function keyFunction(name) {
  const fn = KEY_FUNCTIONS[name];
  if (!fn) {
    throw new RangeError(`unknown keyBy "${name}" (one of: ${Object.keys(KEY_FUNCTIONS).join(', ')})`);
  }
  return fn;
}

module.exports = { byApiKey, byIp, byApiKeyOrIp, keyFunction, KEY_FUNCTIONS };
