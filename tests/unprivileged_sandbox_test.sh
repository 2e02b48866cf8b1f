#!/usr/bin/env bash
# The hostile fixtures again, with the judge running as an ordinary user:
# the sandbox then rests on an unprivileged user namespace instead of root.
# Runs only when the tests run as root (to become `nobody`) and `nobody` can
# reach the build; exits 77 (skipped) otherwise, saying why.
# Usage: unprivileged_sandbox_test.sh SANDBOX_TEST_BINARY
set -euo pipefail
test_binary=$1
if [ "$(id -u)" != 0 ]; then
  echo "skipped: the tests already run unprivileged (sandbox_test covers this user)"; exit 77
fi
if ! command -v setpriv >/dev/null; then
  echo "skipped: setpriv (util-linux) is missing, so the test cannot become nobody"; exit 77
fi
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
if ! as_nobody test -x "$test_binary"; then
  echo "skipped: nobody cannot reach $test_binary (a checkout in a private directory)"; exit 77
fi
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
chown nobody "$cache"
as_nobody env HOME="$cache" JUDGE_CACHE_DIR="$cache" "$test_binary" --gtest_brief=1
