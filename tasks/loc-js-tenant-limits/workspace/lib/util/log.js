'use strict';

const LEVELS = ['debug', 'info', 'warn', 'error'];

function createLogger(name, { level = process.env.TURNSTILE_LOG || 'warn', out = process.stderr } = {}) {
  const min = Math.max(0, LEVELS.indexOf(level));
  const log = {};
  for (const [i, lvl] of LEVELS.entries()) {
    log[lvl] = (...parts) => {
      if (i >= min) out.write(`${lvl} ${name}: ${parts.join(' ')}\n`);
    };
  }
  return log;
}

module.exports = { createLogger };
