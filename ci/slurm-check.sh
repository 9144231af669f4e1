#!/usr/bin/env bash
# Proves the Slurm example end to end on this machine: starts a one-node Slurm cluster from
# Debian's packages (slurm-wlm, munge), submits `ci/shards/slurm-array.sh` exactly as the
# docs say (`sbatch ci/shards/slurm-array.sh`), waits for the merge job that it submits, and
# checks the merged run: every (task, trial) once, each with the verdict of the recorded
# baseline (ci/baseline: the unsharded run of the same cassette).
#
#   ci/slurm-check.sh [TASK_ID...]   # default: four tasks on the base image
#
# Runs as root (it writes /etc/slurm and starts the daemons) and stops the daemons it
# started when it ends. Uses the nab it finds in target/release, else target/debug
# (NAB_BIN names another). Two shards of one CPU each, so it fits a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

ids=("$@")
[ ${#ids[@]} -gt 0 ] || ids=(c-int-overflow py-pagination-offbyone term-log-report loc-py-cache-key)
nab="${NAB_BIN:-}"
if [ -z "$nab" ]; then
  for p in target/release/nab target/debug/nab; do
    [ -x "$p" ] && { nab=$p; break; }
  done
fi
[ -n "$nab" ] || { echo "slurm-check: build nab first (cargo build -p nab-harness -p nab-agent)" >&2; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null
fi

# One node: this host, with its CPUs and most of its memory; root runs the jobs (the
# shards need Docker), no accounting, no cgroups (a container may not delegate them).
host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))
state=$(mktemp -d /tmp/nab-slurm.XXXXXX)
mkdir -p /etc/slurm "$state/ctld" "$state/d" /run/munge /var/log/munge /var/lib/munge
cat > /etc/slurm/slurm.conf <<EOF
ClusterName=nabcheck
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
MpiDefault=none
# A fresh state numbers jobs from here: per second, so runs/slurm-<array id>/ is new.
FirstJobId=$(( $(date +%s) % 50000000 + 1000 ))
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
started=()
cleanup() {
  for p in "${started[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
if ! pgrep -x munged >/dev/null; then
  [ -s /etc/munge/munge.key ] || mungekey --create --force
  chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
  runuser -u munge -- /usr/sbin/munged
  started+=("$(pgrep -x munged | head -1)")
fi
slurmctld -D >"$state/slurmctld.out" 2>&1 & started+=($!)
slurmd -D >"$state/slurmd.out" 2>&1 & started+=($!)
for _ in $(seq 60); do
  sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)' && break
  sleep 1
done
sinfo -h -o '%t' | grep -qE '^(idle|mix|alloc)' || {
  echo "slurm-check: the node never became idle" >&2
  tail -20 "$state/slurmctld.log" "$state/slurmd.log" >&2 || true
  exit 1
}

# The suite: copies of the chosen tasks (the cassette covers them all).
suite="$state/suite"
mkdir -p "$suite"
for id in "${ids[@]}"; do cp -R "$root/tasks/$id" "$suite/$id"; done

# The documented command. It submits the array and the merge and says their ids.
t0=$(date +%s)
said=$(NAB_BIN="$nab" NAB_SHARDS=2 NAB_SHARD_CPUS=1 NAB_SHARD_MEM=2G NAB_TASKS="$suite" \
  sbatch --wait ci/shards/slurm-array.sh)
submit=${said##* }
log="slurm-$submit.out"
echo "$said; $(cat "$log")"
array=$(sed -n 's/^submitted shards \([0-9]*\) and their merge \([0-9]*\).*/\1/p' "$log")
merge=$(sed -n 's/^submitted shards \([0-9]*\) and their merge \([0-9]*\).*/\2/p' "$log")
rm -f "$log"
[ -n "$array" ] && [ -n "$merge" ] || { echo "slurm-check: the submission said no job ids" >&2; exit 1; }
for _ in $(seq 1800); do
  squeue -h -j "$array,$merge" 2>/dev/null | grep -q . || break
  sleep 1
done
if squeue -h -j "$array,$merge" 2>/dev/null | grep -q .; then
  echo "slurm-check: the jobs did not end in 30 min" >&2
  exit 1
fi
echo "slurm-check: shards and merge ended after $(( $(date +%s) - t0 )) s"

merged="runs/slurm-$array/merged"
python3 - "$merged/results.jsonl" ci/baseline/results.jsonl "${ids[@]}" <<'EOF'
import json, sys
merged, baseline, ids = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = [json.loads(l) for l in open(merged) if l.strip()]
want = {(r["task_id"], r["trial"]): r["status"] for r in map(json.loads, open(baseline)) if r["task_id"] in ids}
got = {}
for r in rows:
    key = (r["task_id"], r["trial"])
    if key in got:
        sys.exit(f"slurm-check: {key} is in the merged run twice")
    got[key] = r["status"]
if set(got) != set(want):
    sys.exit(f"slurm-check: the merged run has {sorted(got)}, the baseline {sorted(want)}")
diff = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
if diff:
    sys.exit(f"slurm-check: verdicts differ from the unsharded baseline (merged, baseline): {diff}")
print(f"slurm-check: merged run of {len(got)} trials, each once, each with the baseline's verdict")
EOF
test -s "$merged/report.html" || { echo "slurm-check: no merged report" >&2; exit 1; }
echo "slurm-check: passed; the report: $merged/report.html"
