'use strict';
// The probe of the hidden tests: it builds a Stockroom (the agent's code, compiled from
// /workspace/src by the runner) over a store of its own whose every load and save it can
// hold, fail and release, plays one scenario, and prints what it observed as one JSON line.
// It decides nothing: the runner (pytest, as the verifier user) holds the expected values.
// usage: node stockprobe.js DIST SCENARIO

const [, , dist, scenario] = process.argv;
const lib = require(`${dist}/src/index.js`);

const unhandled = [];
process.on('unhandledRejection', (err) => {
  unhandled.push(String(err && err.message));
});

const clone = (r) => (r === undefined ? undefined : JSON.parse(JSON.stringify(r)));
const turn = () => new Promise((resolve) => setImmediate(resolve));
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Lets pending work run: turns of the event loop, then a short pause for timers. */
async function settle(turns = 30) {
  for (let i = 0; i < turns; i++) await turn();
  await pause(15);
  for (let i = 0; i < 5; i++) await turn();
}

class ProbeStore {
  constructor(records) {
    this.records = new Map();
    for (const [sku, onHand, reservations] of records) {
      this.records.set(sku, { sku, onHand, reservations: reservations || {}, version: 1 });
    }
    this.loads = {};
    this.saved = [];
    this.holds = { load: [], save: [] };
    this.fails = { load: [], save: [] };
    this.held = [];
  }

  holdNext(kind, sku) {
    this.holds[kind].push(sku);
  }

  failNext(kind, sku) {
    this.fails[kind].push(sku);
  }

  take(list, sku) {
    const i = list.indexOf(sku);
    if (i < 0) return false;
    list.splice(i, 1);
    return true;
  }

  gate(kind, sku, fn) {
    const fail = this.take(this.fails[kind], sku);
    const run = (resolve, reject) => {
      if (fail) {
        reject(new Error(`store timeout: ${kind} ${sku}`));
        return;
      }
      try {
        resolve(fn());
      } catch (err) {
        reject(err);
      }
    };
    if (this.take(this.holds[kind], sku)) {
      return new Promise((resolve, reject) => this.held.push({ kind, sku, go: () => run(resolve, reject) }));
    }
    return new Promise((resolve, reject) => setImmediate(() => run(resolve, reject)));
  }

  load(sku) {
    this.loads[sku] = (this.loads[sku] || 0) + 1;
    const snapshot = clone(this.records.get(sku));
    return this.gate('load', sku, () => snapshot);
  }

  save(record) {
    const copy = clone(record);
    return this.gate('save', copy.sku, () => {
      this.records.set(copy.sku, copy);
      this.saved.push({ sku: copy.sku, onHand: copy.onHand, reservations: copy.reservations });
    });
  }

  isHeld(kind, sku) {
    return this.held.some((h) => h.kind === kind && h.sku === sku);
  }

  release(kind, sku) {
    const i = this.held.findIndex((h) => h.kind === kind && h.sku === sku);
    if (i < 0) return false;
    const [h] = this.held.splice(i, 1);
    h.go();
    return true;
  }

  releaseAll() {
    while (this.held.length) this.held.shift().go();
  }

  level(sku) {
    const r = this.records.get(sku);
    if (!r) return { onHand: 0, reserved: 0 };
    return { onHand: r.onHand, reserved: Object.values(r.reservations).reduce((a, b) => a + b, 0) };
  }
}

/** Follows a promise: its state can be read at any time. */
function track(promise) {
  const t = { state: 'pending' };
  Promise.resolve(promise).then(
    (value) => {
      t.state = 'ok';
      t.value = value;
    },
    (err) => {
      t.state = 'error';
      t.error = { name: String(err && err.name), message: String(err && err.message) };
    },
  );
  return t;
}

function call(fn) {
  try {
    return track(fn());
  } catch (err) {
    return track(Promise.reject(err));
  }
}

function show(t) {
  if (t.state === 'ok') return { state: 'ok', value: shape(t.value) };
  if (t.state === 'error') return { state: 'error', error: t.error };
  return { state: 'pending' };
}

function shape(v) {
  if (Array.isArray(v)) return v.map(shape);
  if (v && typeof v === 'object') {
    return { sku: v.sku, onHand: v.onHand, reserved: v.reserved, available: v.available };
  }
  return v;
}

/** Waits until the call settled: some turns of the event loop, then up to 250 ms more. */
async function waitFor(t, turns = 60) {
  for (let i = 0; i < turns && t.state === 'pending'; i++) await turn();
  const end = Date.now() + 250;
  while (t.state === 'pending' && Date.now() < end) await pause(2);
  return t;
}

/** Starts a write; if it waits on a load held by the scenario (an implementation may read
 * the record through the cache), lets that load go and notes it. Returns once it settled and
 * the event loop has turned a few times more (work the write left behind has run). */
async function write(store, fn, sku) {
  const t = call(fn);
  await waitFor(t, 30);
  let releasedHeldLoad = false;
  if (t.state === 'pending' && store.isHeld('load', sku)) {
    store.release('load', sku);
    releasedHeldLoad = true;
    await waitFor(t, 60);
  }
  await settle();
  return { t, releasedHeldLoad };
}

const scenarios = {
  async shared_load() {
    const store = new ProbeStore([['A', 10]]);
    const room = lib.createStockroom({ store });
    store.holdNext('load', 'A');
    const calls = [0, 1, 2, 3].map(() => call(() => room.level('A')));
    await settle();
    const loadsWhileHeld = store.loads.A || 0;
    const pendingWhileHeld = calls.filter((c) => c.state === 'pending').length;
    store.releaseAll();
    await settle();
    const later = await waitFor(call(() => room.level('a')));
    const many = await waitFor(call(() => room.levels(['A', 'A'])));
    await settle();
    return { loadsWhileHeld, pendingWhileHeld, calls: calls.map(show), later: show(later), many: show(many), loads: store.loads.A || 0 };
  },

  async read_after_write() {
    const store = new ProbeStore([['A', 10], ['B', 5, { 'SO-1': 2 }], ['C', 0]]);
    const room = lib.createStockroom({ store });
    const warm = await waitFor(call(() => room.levels(['A', 'B', 'C'])));
    const out = { warm: show(warm), steps: [] };
    const step = async (name, fn, skus) => {
      const w = await waitFor(call(fn));
      // No turn of the event loop between the write's resolution and these reads.
      const reads = skus.map((s) => call(() => room.level(s)));
      const both = call(() => room.levels(skus));
      for (const r of reads) await waitFor(r);
      await waitFor(both);
      out.steps.push({ name, write: show(w), reads: reads.map(show), levels: show(both) });
    };
    await step('adjust', () => room.adjust('A', 5, 'count'), ['A']);
    await step('reserve', () => room.reserve('SO-7', 'A', 3), ['A']);
    await step('release', () => room.release('SO-1', 'B'), ['B']);
    await step('transfer', () => room.transfer('A', 'C', 4), ['A', 'C']);
    await step('adjust-again', () => room.adjust('C', -1, 'damaged'), ['C']);
    await settle();
    return out;
  },

  async inflight_joiner() {
    const store = new ProbeStore([['A', 10]]);
    const room = lib.createStockroom({ store });
    store.holdNext('load', 'A');
    const first = call(() => room.level('A'));
    await settle();
    const { t: w, releasedHeldLoad } = await write(store, () => room.adjust('A', 5, 'receipt'), 'A');
    const after = call(() => room.level('A'));
    await waitFor(after, 40);
    const afterState = show(after);
    store.releaseAll();
    await settle();
    await waitFor(after);
    const again = await waitFor(call(() => room.level('A')));
    await settle();
    const last = await waitFor(call(() => room.level('A')));
    return { releasedHeldLoad, write: show(w), first: show(first), afterBeforeRelease: afterState, after: show(after), again: show(again), last: show(last) };
  },

  async inflight_not_kept() {
    const out = {};
    for (const kind of ['adjust', 'reserve', 'transfer']) {
      const store = new ProbeStore([['A', 10], ['B', 1]]);
      const room = lib.createStockroom({ store });
      store.holdNext('load', 'A');
      const first = call(() => room.level('A'));
      await settle();
      const fn = {
        adjust: () => room.adjust('A', 5, 'receipt'),
        reserve: () => room.reserve('SO-3', 'A', 6),
        transfer: () => room.transfer('B', 'A', 1),
      }[kind];
      const { t: w } = await write(store, fn, 'A');
      store.releaseAll();
      await settle();
      await waitFor(first);
      const later = await waitFor(call(() => room.level('A')));
      await settle();
      const last = await waitFor(call(() => room.level('A')));
      out[kind] = { write: show(w), first: show(first), later: show(later), last: show(last), store: store.level('A') };
    }
    return out;
  },

  async failed_load() {
    const store = new ProbeStore([['B', 7]]);
    const room = lib.createStockroom({ store });
    store.failNext('load', 'B');
    store.holdNext('load', 'B');
    const a = call(() => room.level('B'));
    const b = call(() => room.level('B'));
    await settle();
    const loadsWhileHeld = store.loads.B || 0;
    store.releaseAll();
    await waitFor(a);
    await waitFor(b);
    await settle();
    const next = await waitFor(call(() => room.level('B')));
    const loadsAfter = store.loads.B || 0;
    store.failNext('load', 'C');
    const c1 = await waitFor(call(() => room.level('C')));
    const c2 = await waitFor(call(() => room.level('C')));
    const c3 = await waitFor(call(() => room.level('C')));
    return { a: show(a), b: show(b), loadsWhileHeld, next: show(next), loadsAfter, c1: show(c1), c2: show(c2), c3: show(c3), loadsC: store.loads.C || 0 };
  },

  async queued_writes() {
    const store = new ProbeStore([['A', 10]]);
    const room = lib.createStockroom({ store });
    store.holdNext('save', 'A');
    store.failNext('save', 'A');
    const w = [
      call(() => room.adjust('A', 5, 'receipt')),
      call(() => room.adjust('A', 3, 'receipt')),
      call(() => room.reserve('SO-8', 'A', 100)),
      call(() => room.adjust('A', -2, 'damaged')),
      call(() => room.reserve('SO-8', 'A', 4)),
      call(() => room.release('SO-9', 'A')),
      call(() => room.adjust('A', 1, 'found')),
    ];
    await settle();
    const pendingWhileHeld = w.filter((t) => t.state === 'pending').length;
    store.releaseAll();
    for (const t of w) await waitFor(t, 100);
    await settle();
    const level = await waitFor(call(() => room.level('A')));
    return { pendingWhileHeld, writes: w.map(show), saved: store.saved, level: show(level), store: store.level('A') };
  },

  async failed_save() {
    const store = new ProbeStore([['A', 10], ['S', 20], ['T', 1]]);
    const room = lib.createStockroom({ store });
    await waitFor(call(() => room.levels(['A', 'S', 'T'])));
    store.failNext('save', 'A');
    const w = await waitFor(call(() => room.adjust('A', 5, 'receipt')));
    const now = call(() => room.level('A'));
    await waitFor(now);
    await settle();
    const later = await waitFor(call(() => room.level('A')));
    store.failNext('save', 'T');
    const tr = await waitFor(call(() => room.transfer('S', 'T', 5)));
    const s1 = call(() => room.level('S'));
    const t1 = call(() => room.level('T'));
    await waitFor(s1);
    await waitFor(t1);
    await settle();
    const s2 = await waitFor(call(() => room.level('S')));
    const t2 = await waitFor(call(() => room.level('T')));
    return {
      write: show(w), now: show(now), later: show(later), storeA: store.level('A'),
      transfer: show(tr), s1: show(s1), t1: show(t1), s2: show(s2), t2: show(t2),
      storeS: store.level('S'), storeT: store.level('T'),
    };
  },

  async read_during_save() {
    // Reads made while a write's save is in flight, then a read right after the write settled
    // (no turn of the event loop in between): adjust, then a transfer whose second save fails.
    const store = new ProbeStore([['A', 10], ['S', 20], ['T', 1]]);
    const room = lib.createStockroom({ store });
    await waitFor(call(() => room.levels(['A', 'S', 'T'])));
    store.holdNext('save', 'A');
    const w = call(() => room.adjust('A', 5, 'receipt'));
    await settle();
    const savingA = store.isHeld('save', 'A');
    const during = await waitFor(call(() => room.level('A')));
    await settle();
    store.release('save', 'A');
    await waitFor(w);
    const after = call(() => room.level('A'));
    await waitFor(after);
    await settle();
    const later = await waitFor(call(() => room.level('A')));

    store.holdNext('save', 'S');
    store.failNext('save', 'T');
    const tr = call(() => room.transfer('S', 'T', 5));
    await settle();
    const savingS = store.isHeld('save', 'S');
    const duringS = await waitFor(call(() => room.level('S')));
    await settle();
    store.release('save', 'S');
    await waitFor(tr);
    const afterS = call(() => room.level('S'));
    const afterT = call(() => room.level('T'));
    await waitFor(afterS);
    await waitFor(afterT);
    await settle();
    const laterS = await waitFor(call(() => room.level('S')));
    return {
      savingA, write: show(w), during: show(during), after: show(after), later: show(later), storeA: store.level('A'),
      savingS, transfer: show(tr), duringS: show(duringS), afterS: show(afterS), afterT: show(afterT), laterS: show(laterS),
      storeS: store.level('S'), storeT: store.level('T'),
    };
  },

  async independent() {
    const store = new ProbeStore([['A', 10], ['B', 5], ['C', 3]]);
    const room = lib.createStockroom({ store });
    store.holdNext('load', 'A');
    const readA = call(() => room.level('A'));
    await settle();
    const whileLoadHeld = {
      readB: show(await waitFor(call(() => room.level('B')))),
      adjustB: show(await waitFor(call(() => room.adjust('B', 1, 'count')))),
      reserveB: show(await waitFor(call(() => room.reserve('SO-2', 'B', 2)))),
    };
    store.holdNext('save', 'A');
    const writeA = call(() => room.adjust('A', 2, 'receipt'));
    await settle();
    const whileSaveHeld = {
      readB: show(await waitFor(call(() => room.level('B')))),
      releaseB: show(await waitFor(call(() => room.release('SO-2', 'B')))),
      transferBC: show(await waitFor(call(() => room.transfer('B', 'C', 1)))),
      readC: show(await waitFor(call(() => room.level('C')))),
    };
    const stateA = { readA: readA.state, writeA: writeA.state };
    store.releaseAll();
    await settle();
    store.releaseAll();
    await waitFor(readA);
    await waitFor(writeA);
    await settle();
    const finalA = await waitFor(call(() => room.level('A')));
    return { whileLoadHeld, whileSaveHeld, stateA, readA: show(readA), writeA: show(writeA), finalA: show(finalA) };
  },
};

async function main() {
  const fn = scenarios[scenario];
  if (!fn) throw new Error(`no scenario ${scenario}`);
  const result = await fn();
  result.unhandledRejections = unhandled.length;
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stdout.write(JSON.stringify({ crashed: String(err && err.stack) }) + '\n');
    process.exit(0);
  },
);
