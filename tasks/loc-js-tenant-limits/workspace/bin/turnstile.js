#!/usr/bin/env node
'use strict';

const { parseArgs } = require('../lib/cli/args');
const { COMMANDS } = require('../lib/cli/commands');

function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    process.stderr.write(`turnstile: ${err.message}\n`);
    return 2;
  }
  const command = COMMANDS[opts.command];
  if (!command) {
    process.stderr.write(`usage: turnstile plan|simulate --config FILE [--tenant ID] [--json] [--requests FILE]\n`);
    return 2;
  }
  try {
    command(opts, process.stdout);
  } catch (err) {
    process.stderr.write(`turnstile: ${err.message}\n`);
    return 1;
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
