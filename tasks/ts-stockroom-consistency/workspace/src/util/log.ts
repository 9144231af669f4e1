type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const v = (process.env.STOCKROOM_LOG ?? 'warn').toLowerCase() as Level;
  return ORDER[v] ?? ORDER.warn;
}

function emit(level: Level, msg: string): void {
  if (ORDER[level] >= threshold()) process.stderr.write(`[${level}] ${msg}\n`);
}

export const log = {
  debug: (msg: string) => emit('debug', msg),
  info: (msg: string) => emit('info', msg),
  warn: (msg: string) => emit('warn', msg),
  error: (msg: string) => emit('error', msg),
};
