// Unit tests of the sources: node test/run.mjs
import assert from 'node:assert/strict';

import * as tf from '../src/index.js';
import plural from '../src/plural.js';

const tests = {
  'formatBytes picks binary units'() {
    assert.equal(tf.formatBytes(0), '0 B');
    assert.equal(tf.formatBytes(1023), '1023 B');
    assert.equal(tf.formatBytes(1536), '1.5 KiB');
    assert.equal(tf.formatBytes(1048576), '1 MiB');
    assert.equal(tf.formatBytes(-2048), '-2 KiB');
    assert.equal(tf.formatBytes(1500000, { digits: 2 }), '1.43 MiB');
  },
  'parseBytes reads what formatBytes writes'() {
    assert.equal(tf.parseBytes('1.5 KiB'), 1536);
    assert.equal(tf.parseBytes('2MB'), 2097152);
    assert.throws(() => tf.parseBytes('lots'), RangeError);
  },
  'formatDuration and formatClock'() {
    assert.equal(tf.formatDuration(250), '250ms');
    assert.equal(tf.formatDuration(3723000), '1h 2m 3s');
    assert.equal(tf.formatDuration(90061000), '1d 1h 1m 1s');
    assert.equal(tf.formatClock(3723000), '01:02:03');
  },
  'parse reads durations'() {
    assert.equal(tf.parse('1h 2m 3s'), 3723000);
    assert.equal(tf.parse('150ms'), 150);
    assert.throws(() => tf.parse('soon'), RangeError);
  },
  plural() {
    assert.equal(plural(1, 'file'), '1 file');
    assert.equal(tf.plural(3, 'entry', 'entries'), '3 entries');
  },
  'units are listed'() {
    assert.deepEqual(tf.BYTE_UNITS, ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB']);
  },
};

let failed = 0;
for (const [name, fn] of Object.entries(tests)) {
  try {
    fn();
    console.log(`ok - ${name}`);
  } catch (err) {
    failed += 1;
    console.log(`not ok - ${name}\n  ${String(err.message).split('\n').join('\n  ')}`);
  }
}
console.log(`${Object.keys(tests).length - failed}/${Object.keys(tests).length} passed`);
process.exitCode = failed ? 1 : 0;
