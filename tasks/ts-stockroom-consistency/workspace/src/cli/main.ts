import { createStockroom } from '../app/container';
import { configFrom, storeFor } from '../app/config';
import { parseArgs } from './args';
import { showCommand } from './commands/show';
import { adjustCommand, releaseCommand, reserveCommand, transferCommand } from './commands/write';
import { importCommand } from './commands/import';

const HELP = `usage: stockroom COMMAND [--data DIR] [--latency-ms N] [--retries N] [--json] [--stats]

  show SKU...                         levels of SKUs
  adjust SKU DELTA [--reason TEXT]    add (or remove, negative) units on hand
  reserve ORDER SKU QTY               hold units for an order
  release ORDER SKU                   give back an order's units
  transfer FROM TO QTY                move available units between SKUs
  import FILE.csv [--concurrency N]   book a goods-in file (sku,quantity,ref), N lines at a time
`;

export async function main(argv: readonly string[]): Promise<number> {
  try {
    const { command, positional, flags } = parseArgs(argv);
    if (command === 'help' || flags.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const config = configFrom(flags);
    const room = createStockroom({ store: storeFor(config) });
    const json = flags.json === true;
    let out: string;
    switch (command) {
      case 'show':
        out = await showCommand(room, positional, json);
        break;
      case 'adjust':
        out = await adjustCommand(room, positional, typeof flags.reason === 'string' ? flags.reason : undefined, json);
        break;
      case 'reserve':
        out = await reserveCommand(room, positional, json);
        break;
      case 'release':
        out = await releaseCommand(room, positional, json);
        break;
      case 'transfer':
        out = await transferCommand(room, positional, json);
        break;
      case 'import':
        out = await importCommand(room, positional, config.concurrency);
        break;
      default:
        process.stderr.write(`unknown command ${command}\n${HELP}`);
        return 2;
    }
    process.stdout.write(out + '\n');
    if (flags.stats) process.stdout.write(JSON.stringify(room.stats()) + '\n');
    return 0;
  } catch (err) {
    process.stderr.write(`stockroom: ${(err as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
