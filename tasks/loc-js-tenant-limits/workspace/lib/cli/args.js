'use strict';

const FLAGS = { '--config': 'config', '--tenant': 'tenant', '--requests': 'requests' };
const SWITCHES = { '--json': 'json' };

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const opts = { command, json: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (SWITCHES[arg]) {
      opts[SWITCHES[arg]] = true;
    } else if (FLAGS[arg]) {
      if (i + 1 >= rest.length) throw new RangeError(`${arg} needs a value`);
      opts[FLAGS[arg]] = rest[++i];
    } else {
      throw new RangeError(`unknown argument ${arg}`);
    }
  }
  if (!opts.config) opts.config = 'config/tenants.json';
  return opts;
}

module.exports = { parseArgs };
