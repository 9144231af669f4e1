'use strict';

const { loadConfig, parseConfig } = require('./config/load');
const { resolvePolicy, resolveAll } = require('./policy/resolve');
const { LimiterRegistry } = require('./limiter/registry');
const { rateLimitHeaders } = require('./http/headers');

module.exports = { loadConfig, parseConfig, resolvePolicy, resolveAll, LimiterRegistry, rateLimitHeaders };
