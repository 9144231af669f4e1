type KeyPart = string | number | boolean | undefined;

function escape(s: string): string {
  return s.replace(/[\\;=]/g, (c) => `\\${c}`);
}

/**
 * A string that is equal for two records exactly when their defined fields are equal,
 * whatever order the fields were written in.
 */
export function stableKey(fields: Readonly<Record<string, KeyPart>>): string {
  return Object.keys(fields)
    .filter((k) => fields[k] !== undefined)
    .sort()
    .map((k) => `${escape(k)}=${escape(String(fields[k]))}`)
    .join(';');
}
