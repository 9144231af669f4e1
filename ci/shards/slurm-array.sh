#!/usr/bin/env bash
# Example: the suite cut into shards by a Slurm job array, one array task per shard, each on
# its node's Docker engine; a dependent job merges them when every shard has ended.
#
#   sbatch ci/shards/slurm-array.sh            # submits the array and the merge after it
#
# Assumes nodes with Docker and this checkout (built: ci/setup.sh, or at least
# `cargo build --release -p nab-harness -p nab-agent`) on a file system every node sees.
# The base image is built on each node's engine the first time a shard runs there.
#
# --group is the array's job id: shared by every shard of this submission, by no other.
# A shard that is requeued resumes its own folder. NAB_MODEL picks the model (default: the
# recorded cassette); NAB_TRIALS the trials per task.
#SBATCH --job-name=nab-shard
#SBATCH --array=1-4
#SBATCH --cpus-per-task=4
#SBATCH --mem=16G
#SBATCH --time=03:00:00
#SBATCH --output=runs/slurm-%A-shard-%a.log
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/../..}"
nab=./target/release/nab

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  # Not inside the array: submit it, then the merge once all of it has ended (afterany:
  # a failed shard still leaves its trials; the merge names whatever is missing).
  mkdir -p runs
  array=$(sbatch --parsable "$0")
  sbatch --dependency="afterany:$array" --job-name=nab-merge --output="runs/slurm-$array-merge.log" \
    --wrap="$nab merge --out runs/slurm-$array/merged runs/slurm-$array/shard-*/"
  echo "submitted shards $array and their merge; the report: runs/slurm-$array/merged/report.html"
  exit 0
fi

group="$SLURM_ARRAY_JOB_ID"
count="${SLURM_ARRAY_TASK_COUNT:-4}"
out="runs/slurm-$group/shard-$SLURM_ARRAY_TASK_ID"
resume=()
[ -s "$out/results.jsonl" ] && resume=(--resume)
# Each node's nab keeps its temporary files and disk quotas on the node itself.
export TMPDIR="${SLURM_TMPDIR:-/tmp}"
status=0
"$nab" run --tasks tasks --agent nab-agent --model "${NAB_MODEL:-replay:ci/cassette}" \
  --trials "${NAB_TRIALS:-1}" -j "$SLURM_CPUS_PER_TASK" \
  --shard "$SLURM_ARRAY_TASK_ID/$count" --group "$group" --out "$out" "${resume[@]}" || status=$?
# 1: some trial failed on infrastructure (recorded as an error, still mergeable).
[ "$status" -le 1 ] || exit "$status"
