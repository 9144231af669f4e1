// The few Node.js APIs stockroom uses. No @types/node is vendored (the build has no
// network), so these declarations stand in for it.

declare module 'fs' {
  export function readFileSync(path: string, encoding: 'utf8'): string;
  export function existsSync(path: string): boolean;
  export function writeFileSync(path: string, data: string, encoding: 'utf8'): void;
  export function renameSync(from: string, to: string): void;
}

declare module 'path' {
  export function join(...parts: string[]): string;
  export function resolve(...parts: string[]): string;
  export function dirname(p: string): string;
  export function basename(p: string, ext?: string): string;
}

declare const process: {
  argv: string[];
  env: Record<string, string | undefined>;
  exitCode: number | undefined;
  cwd(): string;
  stdout: { write(s: string): boolean };
  stderr: { write(s: string): boolean };
};

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function setImmediate(callback: () => void): unknown;

declare const require: { main: unknown };
declare const module: unknown;
