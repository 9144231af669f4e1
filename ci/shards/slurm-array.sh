#!/usr/bin/env bash
# Example: the suite cut into shards by a Slurm job array, one array task per shard, each on
# its node's Docker engine; a dependent job merges them when every shard has ended.
#
#   sbatch ci/shards/slurm-array.sh     # a short job that submits the array and the merge
#   bash ci/shards/slurm-array.sh       # the same, from the login node, without that job
#
# Either way the script submits itself again as the array (`--array=1-$NAB_SHARDS`): only
# then does it run a shard. The file has no `#SBATCH --array` line on purpose: with one,
# `sbatch` of the file would start the shards straight away and never submit the merge.
#
# Assumes nodes with Docker and this checkout (built: ci/setup.sh, or at least
# `cargo build --release -p nab-harness -p nab-agent`) on a file system every node sees.
# The base image is built on each node's engine the first time a shard runs there.
#
# --group is the array's job id: shared by every shard of this submission, by no other.
# A shard that is requeued resumes its own folder. NAB_MODEL picks the model (default: the
# recorded cassette); NAB_TRIALS the trials per task; NAB_SHARDS the shards (default 4);
# NAB_SHARD_CPUS and NAB_SHARD_MEM each shard's CPUs (also its -j) and memory (default 4
# and 16G); NAB_TASKS the suite folder (default tasks).
#
# Under sbatch, what it submitted is said in slurm-<job id>.out in the folder sbatch ran in
# (Slurm's default: runs/ may not exist yet when the job starts).
#SBATCH --job-name=nab-submit
#SBATCH --time=00:05:00
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/../..}"
nab="${NAB_BIN:-./target/release/nab}"

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  # Not inside the array: submit it, then the merge once all of it has ended (afterany:
  # a failed shard still leaves its trials; the merge names whatever is missing). Under
  # sbatch, $0 is Slurm's copy of this file, which is the same script.
  mkdir -p runs
  shards="${NAB_SHARDS:-4}"
  array=$(sbatch --parsable --job-name=nab-shard --array="1-$shards" \
    --cpus-per-task="${NAB_SHARD_CPUS:-4}" --mem="${NAB_SHARD_MEM:-16G}" --time=03:00:00 \
    --output="runs/slurm-%A-shard-%a.log" "$0")
  merge=$(sbatch --parsable --dependency="afterany:$array" --job-name=nab-merge \
    --output="runs/slurm-$array-merge.log" \
    --wrap="$nab merge --out runs/slurm-$array/merged runs/slurm-$array/shard-*/")
  echo "submitted shards $array and their merge $merge; the report: runs/slurm-$array/merged/report.html"
  exit 0
fi

group="$SLURM_ARRAY_JOB_ID"
count="${SLURM_ARRAY_TASK_COUNT:-${NAB_SHARDS:-4}}"
out="runs/slurm-$group/shard-$SLURM_ARRAY_TASK_ID"
resume=()
[ -s "$out/results.jsonl" ] && resume=(--resume)
# Each node's nab keeps its temporary files and disk quotas on the node itself.
export TMPDIR="${SLURM_TMPDIR:-/tmp}"
status=0
"$nab" run --tasks "${NAB_TASKS:-tasks}" --agent nab-agent --model "${NAB_MODEL:-replay:ci/cassette}" \
  --trials "${NAB_TRIALS:-1}" -j "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "$SLURM_ARRAY_TASK_ID/$count" --group "$group" --out "$out" "${resume[@]}" || status=$?
# 1: some trial failed on infrastructure (recorded as an error, still mergeable).
[ "$status" -le 1 ] || exit "$status"
