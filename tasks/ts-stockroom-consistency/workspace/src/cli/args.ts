export interface ParsedArgs {
  command: string;
  positional: string[];
  flags: Record<string, string | boolean>;
}

const BOOLEAN_FLAGS = new Set(['json', 'help', 'stats']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) {
        flags[a.slice(2, eq)] = a.slice(eq + 1);
      } else if (BOOLEAN_FLAGS.has(a.slice(2)) || i + 1 >= argv.length) {
        flags[a.slice(2)] = true;
      } else {
        flags[a.slice(2)] = argv[++i];
      }
    } else {
      positional.push(a);
    }
  }
  return { command: positional.shift() ?? 'help', positional, flags };
}
