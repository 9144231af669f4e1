#!/usr/bin/env bash
# `nab compare --judge` with a real local judge on the stored baseline (ci/baseline) against
# itself: two identical runs, so the pairwise preference by task must be 0.5 within its
# interval (issue 13). The judge is SmolLM2-135M-Instruct served by llama-cpp-python, set up
# and started by ci/real-model.sh's own steps (install, serve).
#
#   ci/judge-self-compare.sh [MORE NAB COMPARE OPTIONS...]
#
# The judge is asked as a small local model must be: prompts fitted into the server's window
# (--judge-context-tokens $NAB_REAL_CTX), answers held to the verdict's JSON Schema by the
# server's grammar (--judge-response-format json-object), short answers (--judge-max-tokens).
#
# The pairs file is kept: run the script again after a stop and the comparison resumes from
# the pairs already judged.
#
# Environment (besides ci/real-model.sh's NAB_REAL_DIR, NAB_REAL_PORT, NAB_REAL_CTX):
#   NAB              the nab binary (default: built here with cargo, debug)
#   NAB_SELF_OUT     where the pairs file and compare.html go (default $NAB_REAL_DIR/self-compare)
#   NAB_JUDGE_MAX_TOKENS   each answer's max_tokens (default 160: a verdict is ~40 tokens)
#   NAB_JUDGE_TIMEOUT      seconds for one judge call (default 900)
#
# Exit: 0 the interval contains 0.5; 1 it does not, or no interval could be formed; 2 the
# set-up failed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=ci/real-model.sh
source "$ROOT/ci/real-model.sh"
OUT="${NAB_SELF_OUT:-$DIR/self-compare}"
BASELINE="$ROOT/ci/baseline"

step_install
step_serve
if [ -z "${NAB:-}" ]; then
  say "building nab (debug: the time goes to the model, not to nab)"
  (cd "$ROOT" && cargo build -q -p nab-harness --bin nab) || die "cargo build failed"
  NAB="$ROOT/target/debug/nab"
fi
mkdir -p "$OUT"
spec="openai:$MODEL_NAME@http://127.0.0.1:$PORT/v1"
say "nab compare --judge $spec on ci/baseline against itself (pairs: $OUT/pairwise.jsonl)"
rc=0
NAB_API_KEY="${NAB_API_KEY:-no-key-needed}" "$NAB" compare \
  --baseline "$BASELINE" --candidate "$BASELINE" --tasks "$ROOT/tasks" \
  --judge "$spec" --pairs-out "$OUT/pairwise.jsonl" --out "$OUT/compare.html" \
  --judge-max-tokens "${NAB_JUDGE_MAX_TOKENS:-160}" --judge-timeout "${NAB_JUDGE_TIMEOUT:-900}" \
  --judge-context-tokens "$CTX" --judge-response-format json-object "$@" \
  | tee "$OUT/compare.txt" || rc=$?
[ "$rc" -eq 0 ] || die "nab compare failed (exit $rc); the pairs judged so far are in $OUT/pairwise.jsonl"
say "nab compare took $(($(date +%s) - START)) s in all (install and server start included)"
python3 - "$OUT/compare.txt" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"^  (openai\S*)\s+([0-9.]+) \[([0-9.-]+), ([0-9.-]+)\] over (\d+) tasks \((\d+) pairs\)",
              text, re.M)
if not m:
    print("no pairwise interval in nab compare's output (every pair an error, or one task)", file=sys.stderr)
    sys.exit(1)
judge, mean, low, high, tasks, pairs = m.groups()
inside = float(low) <= 0.5 <= float(high)
print(f"self-comparison: preference {mean} [{low}, {high}] over {tasks} tasks ({pairs} pairs): "
      + ("contains 0.5" if inside else "DOES NOT contain 0.5"))
sys.exit(0 if inside else 1)
EOF
