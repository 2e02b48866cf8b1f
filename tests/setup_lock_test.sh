#!/usr/bin/env bash
# One setup at a time per checkout: while another holds the checkout's
# setup lock (two judges started together after a change), bin/setup says
# it is waiting and neither configures nor builds until the lock is free.
# Usage: setup_lock_test.sh SOURCE_DIR (its build/ is the one bin/setup uses)
set -euo pipefail
root=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$root/build"
exec 8>"$root/build/.setup.lock"
flock 8  # as a setup in progress would hold it
("$root/bin/setup" --all-targets 2>"$scratch/err"; echo "status $?" >"$scratch/done") &
for _ in $(seq 300); do
  grep -q "waiting for another judge to finish setting up" "$scratch/err" && break
  sleep 0.1
done
grep -q "waiting for another judge to finish setting up $root/build" "$scratch/err" ||
  fail "bin/setup did not say it waits: $(cat "$scratch/err")"
sleep 1
[ ! -e "$scratch/done" ] || fail "bin/setup went on while another setup held the lock"
flock -u 8
wait
[ "$(cat "$scratch/done")" = "status 0" ] || fail "bin/setup failed once the lock was free: $(cat "$scratch/err")"
echo "setup lock: ok"
