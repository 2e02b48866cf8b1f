#!/usr/bin/env bash
# Grading in shards on a real Slurm: starts a one-node cluster of its own
# (munged, slurmctld and slurmd from Debian's munge and slurm-wlm, every
# file in a scratch directory, ports of its own), grades the fixture class
# as a job array of 3 shards, merges them, and requires the merged summary
# to equal one run's (wall times aside). Exits 77 (skipped) with the reason
# where the cluster cannot start (the packages missing, or the node not up),
# and fails instead when CI is set.
# Usage: slurm_shards_test.sh JUDGE_BINARY SOURCE_DIR BUILD_DIR
set -euo pipefail
judge=$1 source=$2 build=$3
# In CI every test runs (bin/setup --all-targets installs Slurm and munge).
skip() {
  if [ -n "${CI:-}" ]; then echo "FAIL: $* (CI runs every test)" >&2; exit 1; fi
  echo "SKIPPED: $*"; exit 77
}
fail() { echo "FAIL: $*" >&2; exit 1; }
for program in munged slurmctld slurmd sbatch sinfo; do
  command -v "$program" >/dev/null || skip "no $program here (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || skip "starting slurmd needs root"

scratch=$(mktemp -d)
stop() {
  for daemon in slurmd slurmctld munged; do
    [ -f "$scratch/$daemon.pid" ] && kill "$(cat "$scratch/$daemon.pid")" 2>/dev/null || true
  done
  sleep 1
  rm -rf "$scratch"
}
trap stop EXIT
mkdir -p "$scratch/state" "$scratch/spool"
host=$(hostname -s)
port=$((20000 + ($$ % 5000) * 2))
dd if=/dev/urandom of="$scratch/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$scratch/munge.key"
chown munge "$scratch/munge.key" 2>/dev/null || true
cat >"$scratch/slurm.conf" <<CONF
ClusterName=judge-shards
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$scratch/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/slurmctld.log
SlurmdLogFile=$scratch/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=grading Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$scratch/slurm.conf
munged --socket="$scratch/munge.socket" --key-file="$scratch/munge.key" --pid-file="$scratch/munged.pid" \
  --log-file="$scratch/munged.log" --seed-file="$scratch/munge.seed" -f || skip "munged would not start"
slurmctld || skip "slurmctld would not start: $(tail -n 3 "$scratch/slurmctld.log" 2>/dev/null)"
slurmd || skip "slurmd would not start: $(tail -n 3 "$scratch/slurmd.log" 2>/dev/null)"
for _ in $(seq 30); do
  [ "$(sinfo -h -o %t 2>/dev/null)" = "idle" ] && break
  sleep 1
done
[ "$(sinfo -h -o %t 2>/dev/null)" = "idle" ] || skip "the Slurm node did not come up: $(tail -n 3 "$scratch/slurmd.log")"

# The fixture problem in a root of its own, and the fixture class.
root=$scratch/root
mkdir -p "$root"
cp -r "$source/harness" "$root/"
cp -r "$source/tests/fixtures/draws/problems" "$source/tests/fixtures/draws/solutions" "$root/"
cp -r "$source/tests/fixtures/draws/harness/." "$root/harness/"
class=$scratch/class
cp -r "$source/tests/fixtures/class" "$class"
cp "$source/tests/fixtures/draws/solutions/draws/reference.hpp" "$class/ada.hpp"
cp "$source/tests/fixtures/draws/solutions/draws/wrong/probs_unnormalized.hpp" "$class/cy.hpp"
export JUDGE_ROOT=$root JUDGE_WORKSPACE=$root/workspace JUDGE_CACHE_DIR=$build/runners

"$judge" grade draws "$class" --trust-submissions --out "$scratch/whole" >/dev/null || fail "the single run failed"
# The recipe of docs/courses.md, as a job array; sbatch passes the environment on.
cat >"$scratch/grade.sbatch" <<JOB
#!/bin/bash
#SBATCH --array=1-3
#SBATCH --output=$scratch/shard-%a.log
exec "$judge" grade draws "$class" --trust-submissions --jobs 1 \
  --shard "\${SLURM_ARRAY_TASK_ID}/\${SLURM_ARRAY_TASK_COUNT}" --out "$scratch/shard-\${SLURM_ARRAY_TASK_ID}"
JOB
sbatch --wait "$scratch/grade.sbatch" >/dev/null || { cat "$scratch"/shard-*.log; fail "a shard job failed"; }
"$judge" grade --merge "$scratch"/shard-1 "$scratch"/shard-2 "$scratch"/shard-3 --out "$scratch/merged" >/dev/null ||
  fail "the merge failed"
for summary in whole merged; do grep -v -e '"seconds"' -e '"hmac"' "$scratch/$summary/summary.json" >"$scratch/$summary.json"; done
diff "$scratch/whole.json" "$scratch/merged.json" || fail "the merged summary differs from one run's"
grep -q '"submission": "ada.hpp"' "$scratch/merged.json" || fail "the merged summary lacks a submission"
echo "slurm shards: ok"
