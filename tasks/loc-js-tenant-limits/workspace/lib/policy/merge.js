'use strict';

function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function deepMerge(...sources) {
  const out = {};
  for (const source of sources) {
    if (!source) continue;
    for (const [key, value] of Object.entries(source)) {
      out[key] = isPlainObject(value) && isPlainObject(out[key]) ? deepMerge(out[key], value)
        : isPlainObject(value) ? deepMerge(value)
          : value;
    }
  }
  return out;
}

module.exports = { isPlainObject, deepMerge };
