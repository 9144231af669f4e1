// A consumer of tinyfmt through `import`. argv[2]: JSON [{spec, calls: [[name, args], ...]}].
// Prints one JSON line: for each spec what loading it gave (the error code, or the export
// names, the values of those that are not functions, and what each call returned or threw).
// It decides nothing; whatever the package prints goes to stderr.
const emit = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);
console.log = console.error;
console.info = console.error;

function observe(mod, calls) {
  const keys = Object.keys(mod).filter((k) => k !== '__esModule').sort();
  const values = {};
  for (const k of keys) values[k] = typeof mod[k] === 'function' ? 'function' : mod[k];
  const results = calls.map(([name, args]) => {
    try {
      return { value: mod[name](...args) };
    } catch (err) {
      return { threw: err && err.name };
    }
  });
  return { ok: true, keys, values, calls: results };
}

const requests = JSON.parse(process.argv[2]);
const out = [];
for (const { spec, calls = [] } of requests) {
  try {
    out.push(observe(await import(spec), calls));
  } catch (err) {
    out.push({ ok: false, code: (err && (err.code || err.name)) || String(err) });
  }
}
emit(JSON.stringify(out) + '\n');
