#!/usr/bin/env bash
# The hostile fixtures again, with the judge running as an ordinary user
# (`nobody`): the sandbox then rests on an unprivileged user namespace
# instead of root. Two rounds where the machine allows:
#   1. nobody as it comes: no subordinate ids, so runners keep its user and
#      the system-call filter must hold them;
#   2. with subordinate ids for nobody in /etc/subuid and /etc/subgid
#      (when newuidmap is installed): runners get a user of their own.
# Runs only when the tests run as root (to become nobody and to lend it
# ids); exits 77 (skipped) otherwise, saying why, except in CI (CI=true),
# where every test must run and a skip is a failure. Directories above the
# build that nobody cannot enter (a checkout in a 0700 temporary directory)
# are opened for it (o+x) for the run and closed again afterwards, and so
# are /etc/subuid and /etc/subgid restored.
# Usage: unprivileged_sandbox_test.sh SANDBOX_TEST_BINARY
set -euo pipefail
test_binary=$1
skip() {
  if [ "${CI:-}" = true ]; then echo "FAILED: CI runs every test, and this one cannot run: $1"; exit 1; fi
  echo "skipped: $1"; exit 77
}
if [ "$(id -u)" != 0 ]; then
  skip "the tests already run unprivileged (sandbox_test covers this user)"
fi
if ! command -v setpriv >/dev/null; then
  skip "setpriv (util-linux) is missing, so the test cannot become nobody"
fi
source "$(dirname "$0")/nobody.sh"

saved=$(mktemp -d)
cache=$(mktemp -d)
restore() {
  close_for_nobody
  for file in subuid subgid; do
    if [ -e "$saved/$file" ]; then cp "$saved/$file" "/etc/$file"; elif [ -e "$saved/$file.absent" ]; then rm -f "/etc/$file"; fi
  done
  rm -rf "$saved" "$cache"
}
trap restore EXIT
# Every directory from / down to the build and the sources, searchable by others.
open_for_nobody "$(dirname "$(readlink -f "$test_binary")")" "$(dirname "$0")"
if ! as_nobody test -x "$test_binary"; then
  skip "nobody cannot run $test_binary"
fi
chown nobody "$cache"
run_as_nobody() {
  as_nobody env HOME="$cache" JUDGE_CACHE_DIR="$cache" "$test_binary" --gtest_brief=1
}

echo "== as nobody, without subordinate ids"
run_as_nobody

if ! command -v newuidmap >/dev/null || ! command -v newgidmap >/dev/null; then
  [ "${CI:-}" = true ] && skip "the round with subordinate ids needs newuidmap and newgidmap (uidmap)"
  echo "== with subordinate ids: skipped (newuidmap and newgidmap, Debian package uidmap, are not installed)"
  exit 0
fi
if grep -q '^nobody:' /etc/subuid 2>/dev/null || grep -q '^nobody:' /etc/subgid 2>/dev/null; then
  echo "== with subordinate ids: nobody has them already"
else
  for file in subuid subgid; do
    if [ -e "/etc/$file" ]; then cp "/etc/$file" "$saved/$file"; else touch "$saved/$file.absent"; fi
    # A range far from the ids useradd hands out.
    echo "nobody:1879048192:65536" >> "/etc/$file"
  done
  echo "== with subordinate ids"
fi
run_as_nobody
