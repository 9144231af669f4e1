#!/usr/bin/env bash
# nab's own peak RSS while it replays a cassette (issue 41): the CI gate's run, nab-agent
# answered from ci/cassette, at several -j. A replayed trial reads only the recordings its
# requests ask for, so the figure should grow with the trials running at once, not with the
# cassette. Peak RSS is `/usr/bin/time -f %M` of the nab process (its containers are not
# counted: Docker runs them).
#
#   benches/measure-replay-rss.sh [TASKS_DIR] [JOBS...]   (default: tasks, and -j 1 2 4)
#
# NAB=path/to/nab measures another build (default: target/release/nab, built first). Task
# images are built before the runs, so no build is measured.
set -euo pipefail
cd "$(dirname "$0")/.."
tasks="${1:-tasks}"
shift || true
jobs=("$@")
[ "${#jobs[@]}" -gt 0 ] || jobs=(1 2 4)
if [[ -z "${NAB:-}" ]]; then
    cargo build --release --quiet -p nab-harness -p nab-agent --bin nab --bin nab-agent
    NAB=./target/release/nab
fi
"$NAB" image build --tasks "$tasks" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "tasks: $(ls -d "$tasks"/*/ | wc -l) in $tasks; cassette: $(du -sh ci/cassette | cut -f1)"
for j in "${jobs[@]}"; do
    out="$tmp/run-$j"
    /usr/bin/time -f "%M" -o "$tmp/rss-$j" "$NAB" run --tasks "$tasks" --agent nab-agent \
        --model replay:ci/cassette --trials 1 -j "$j" --out "$out" >/dev/null 2>"$tmp/err-$j" || true
    passed=$(grep -c '"status":"passed"' "$out/results.jsonl" || true)
    trials=$(wc -l < "$out/results.jsonl")
    kib=$(tail -1 "$tmp/rss-$j")
    echo "-j $j: nab peak RSS $kib KiB ($((kib / 1024)) MiB), $passed/$trials trials passed"
done
