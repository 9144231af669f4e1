'use strict';

class ConfigError extends Error {
  constructor(message, where) {
    super(where ? `${where}: ${message}` : message);
    this.name = 'ConfigError';
    this.where = where;
  }
}

module.exports = { ConfigError };
