'use strict';

const fs = require('fs');
const { ConfigError } = require('./errors');
const { validateConfig } = require('./validate');
const { normalizeTenant } = require('./normalize');

function parseConfig(text, file = '<config>') {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`not valid JSON: ${err.message}`, file);
  }
  validateConfig(doc);
  return { tenants: doc.tenants.map((t, i) => normalizeTenant(t, i)) };
}

function loadConfig(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read: ${err.code || err.message}`, file);
  }
  return parseConfig(text, file);
}

module.exports = { loadConfig, parseConfig };
