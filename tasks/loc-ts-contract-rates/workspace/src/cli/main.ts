import { App } from '../app/container';
import { configFrom } from '../app/config';
import { parseArgs } from './args';
import { invoiceCommand } from './commands/invoice';
import { runCommand } from './commands/run';
import { quoteCommand } from './commands/quote';
import { plansCommand } from './commands/plans';

const HELP = `usage: ledger COMMAND [--data DIR] [--json]

  run      --period YYYY-MM                  invoice every billable account (the month-end run)
  invoice  --account ID --period YYYY-MM     one account's invoice
  quote    --plan ID --metric M --quantity N [--book ID] [--currency C]
  plans                                      the plans and what they include
`;

export function main(argv: readonly string[]): number {
  try {
    const { command, flags } = parseArgs(argv);
    if (command === 'help' || flags.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const app = new App(configFrom(flags));
    let out: string;
    switch (command) {
      case 'run':
        out = runCommand(app, flags);
        break;
      case 'invoice':
        out = invoiceCommand(app, flags);
        break;
      case 'quote':
        out = quoteCommand(app, flags);
        break;
      case 'plans':
        out = plansCommand(app);
        break;
      default:
        process.stderr.write(`unknown command ${command}\n${HELP}`);
        return 2;
    }
    process.stdout.write(out + '\n');
    return 0;
  } catch (err) {
    process.stderr.write(`ledger: ${(err as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
