import { UsageError } from '../domain/errors';

export interface Args {
  command: string;
  flags: Record<string, string | boolean>;
}

const BOOLEAN = new Set(['json', 'help']);

export function parseArgs(argv: readonly string[]): Args {
  const [command = 'help', ...rest] = argv;
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    if (eq >= 0) flags[name] = a.slice(eq + 1);
    else if (BOOLEAN.has(name)) flags[name] = true;
    else if (i + 1 < rest.length) flags[name] = rest[++i];
    else throw new UsageError(`--${name} needs a value`);
  }
  return { command, flags };
}

export function required(flags: Record<string, string | boolean>, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || !v) throw new UsageError(`--${name} is required`);
  return v;
}
