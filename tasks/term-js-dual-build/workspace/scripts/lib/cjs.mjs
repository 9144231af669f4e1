// Rewrites one ES module of tinyfmt into CommonJS. It knows the forms the sources use, one
// statement per line:
//   import name from './x.js';            import { a, b as c } from './x.js';
//   export * from './x.js';               export { a, b as c } from './x.js';
//   export const|let|var|function|class name ...
//   export default function|class [name] ...   export default <expression>;
//   export { a, b as c };
// Bindings are exported once the module body has run (at the end), re-exports in place.

const ID = '[A-Za-z_$][\\w$]*';
const FROM = `\\s*from\\s*(['"])([^'"]+)\\2\\s*;?\\s*$`;

const IMPORT_DEFAULT = new RegExp(`^import\\s+(${ID})${FROM}`);
const IMPORT_NAMED = new RegExp(`^import\\s*\\{([^}]*)\\}${FROM}`);
const IMPORT_BARE = /^import\s*(['"])([^'"]+)\1\s*;?\s*$/;
const EXPORT_STAR = new RegExp(`^export\\s*\\*()${FROM}`);
const EXPORT_FROM = new RegExp(`^export\\s*\\{([^}]*)\\}${FROM}`);
const EXPORT_LIST = /^export\s*\{([^}]*)\}\s*;?\s*$/;
const EXPORT_DECL = new RegExp(`^export\\s+(?:async\\s+)?(const|let|var|function\\*?|class)\\s+(${ID})`);
const EXPORT_DEFAULT_NAMED = new RegExp(`^export\\s+default\\s+((?:async\\s+)?(?:function\\*?|class)\\s+(${ID}))`);
const EXPORT_DEFAULT = /^export\s+default\s+/;

// "a, b as c" -> [{ local: 'a', exported: 'a' }, { local: 'b', exported: 'c' }]
function bindings(list) {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [local, exported = local] = s.split(/\s+as\s+/);
      return { local: local.trim(), exported: exported.trim() };
    });
}

function req(spec) {
  return `require(${JSON.stringify(spec)})`;
}

export function toCommonJS(source, file = '<module>') {
  const out = ["'use strict';", "Object.defineProperty(exports, '__esModule', { value: true });"];
  const tail = [];
  let temp = 0;
  source.split('\n').forEach((line, i) => {
    let m;
    if ((m = IMPORT_DEFAULT.exec(line))) {
      out.push(`const ${m[1]} = ${req(m[3])}.default;`);
    } else if ((m = IMPORT_NAMED.exec(line))) {
      const names = bindings(m[1]).map((b) => (b.local === b.exported ? b.local : `${b.local}: ${b.exported}`));
      out.push(`const { ${names.join(', ')} } = ${req(m[3])};`);
    } else if ((m = IMPORT_BARE.exec(line))) {
      out.push(`${req(m[2])};`);
    } else if ((m = EXPORT_STAR.exec(line))) {
      const t = `__star${temp++}`;
      out.push(
        `const ${t} = ${req(m[3])};`,
        `for (const k of Object.keys(${t})) if (k !== 'default' && !Object.prototype.hasOwnProperty.call(exports, k)) exports[k] = ${t}[k];`,
      );
    } else if ((m = EXPORT_FROM.exec(line))) {
      const t = `__from${temp++}`;
      out.push(`const ${t} = ${req(m[3])};`);
      for (const b of bindings(m[1])) out.push(`exports.${b.local} = ${t}.${b.exported};`);
    } else if ((m = EXPORT_LIST.exec(line))) {
      for (const b of bindings(m[1])) tail.push(`exports.${b.exported} = ${b.local};`);
    } else if ((m = EXPORT_DEFAULT_NAMED.exec(line))) {
      out.push(line.replace(EXPORT_DEFAULT, ''));
      tail.push(`exports.default = ${m[2]};`);
    } else if (EXPORT_DEFAULT.test(line)) {
      out.push(line.replace(EXPORT_DEFAULT, 'exports.default = '));
    } else if ((m = EXPORT_DECL.exec(line))) {
      out.push(line.replace(/^export\s+/, ''));
      tail.push(`exports.${m[2]} = ${m[2]};`);
    } else if (/^\s*(import|export)\b/.test(line)) {
      throw new Error(`${file}:${i + 1}: cannot convert: ${line.trim()}`);
    } else {
      out.push(line);
    }
  });
  return [...out, ...tail].join('\n').replace(/\n*$/, '\n');
}
