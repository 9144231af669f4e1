// Observations only: for each line of comma-separated integers on stdin, one line with the
// workspace's sum (or the error it threw). The runner holds the expected values. The
// code's own prints go to stderr, so they cannot mix into the protocol.
const fs = require("fs");
const out = fs.openSync("/dev/stdout", "w");
// What the code under test prints goes to stderr.
process.stdout.write = process.stderr.write.bind(process.stderr);
const lines = fs.readFileSync(0, "utf8").split("\n").filter((l) => l.length > 0);
const { sum } = require("/workspace/sum.js");
for (const line of lines) {
  let result;
  try {
    result = { value: sum(line.split(",").map(Number)) };
  } catch (e) {
    result = { error: String(e) };
  }
  fs.writeSync(out, JSON.stringify(result) + "\n");
}
