// The unit tests: `npm test` (or `tsc -p . && node /tmp/ledgerline-dist/test/run.js`).
import { divideHalfUp, formatMoney, money, percentOf } from '../src/domain/money';
import { parsePeriod } from '../src/domain/period';
import { rateGraduated } from '../src/rating/tiers';
import { stableKey } from '../src/util/stableKey';
import { deepMerge } from '../src/util/merge';
import { LruCache } from '../src/util/lru';
import { dayOfNextMonth } from '../src/util/dates';
import { App } from '../src/app/container';
import { configFrom } from '../src/app/config';
import { invoiceFor } from '../src/billing/invoiceRun';
import { RateCard } from '../src/domain/priceBook';

let failed = 0;
let passed = 0;

function eq(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a === e) {
    passed++;
  } else {
    failed++;
    process.stdout.write(`FAIL ${what}: expected ${e}, got ${a}\n`);
  }
}

const card = (tiers: RateCard['tiers'], per = 1): RateCard => ({ metric: 'm', currency: 'USD', per, tiers, source: 't' });

eq(divideHalfUp(5, 2), 3, 'divideHalfUp rounds half up');
eq(divideHalfUp(-5, 2), -3, 'divideHalfUp rounds half away from zero');
eq(percentOf(money(1999, 'USD'), 725).cents, 145, 'percentOf');
eq(formatMoney(money(-123456, 'EUR')), '-1,234.56', 'formatMoney');
eq(rateGraduated(0, card([{ upTo: null, unitPrice: 5 }])), 0, 'no units, no charge');
eq(rateGraduated(1500, card([{ upTo: 1000, unitPrice: 40 }, { upTo: null, unitPrice: 25 }], 1000)), 53, 'graduated tiers');
eq(rateGraduated(3, card([{ upTo: 2, unitPrice: 10 }, { upTo: 5, unitPrice: 7 }])), 27, 'units in two bounded tiers');
eq(stableKey({ b: '2', a: 1, c: undefined }), stableKey({ a: 1, b: '2' }), 'stableKey ignores order and undefined');
eq(stableKey({ a: 'x;y' }) === stableKey({ a: 'x', y: '' }), false, 'stableKey escapes separators');
eq(deepMerge<Record<string, unknown>>({ a: { b: 1, c: 2 } }, { a: { c: 3 } }), { a: { b: 1, c: 3 } }, 'deepMerge');
eq(dayOfNextMonth('2026-01-31', 30), '2026-02-28', 'anchor clamped to the month');
eq(parsePeriod('2024-02').end, '2024-02-29', 'leap February');

const lru = new LruCache<number>(2);
lru.set('a', 1);
lru.set('b', 2);
lru.get('a');
lru.set('c', 3);
eq([lru.get('a'), lru.get('b'), lru.get('c')], [1, undefined, 3], 'LRU forgets the least recently used');

// Invoices from the sample data, one account at a time.
const app = new App(configFrom({})); // data/ of the current folder, or $LEDGER_DATA
const march = parsePeriod('2026-03');
const acme = invoiceFor(app, 'acme', march);
eq(acme.lines.map((l) => l.amount.cents), [19900, 29600, 360], 'acme: list rates');
eq(acme.total.cents, 49860, 'acme: total');
const initech = invoiceFor(app, 'initech', march);
eq(initech.discount.cents, -2921, 'initech: the coupon applies to usage lines only');
eq(initech.tax.cents, 23938, 'initech: FR tax on the discounted subtotal');
eq(invoiceFor(app, 'hooli', march).lines.length, 3, 'hooli: a cancelled subscription is not invoiced');

process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exitCode = failed ? 1 : 0;
