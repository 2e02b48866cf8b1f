#!/usr/bin/env bash
# A copy of a checkout (its problems, solutions, harness and build) judges
# its own problems, not those of the checkout it was copied from; its cache
# stays in its own build tree.
# Usage: moved_checkout_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
unset JUDGE_ROOT JUDGE_WORKSPACE JUDGE_CACHE_DIR
fail() { echo "FAIL: $*" >&2; exit 1; }

cp -r "$source/problems" "$source/solutions" "$source/harness" "$copy/"
mkdir -p "$copy/build/judge" "$copy/build/harness"
cp "$build/judge/judge" "$copy/build/judge/"
cp "$build/harness/libjudge_harness.a" "$copy/build/harness/"
# A problem only the copy has.
fixture=$source/tests/fixtures/draws
cp -r "$fixture/problems" "$fixture/solutions" "$fixture/harness" "$copy/"

"$copy/build/judge/judge" __slugs >"$copy/slugs.txt"
grep -qx draws "$copy/slugs.txt" || fail "the copy does not list its own problem"
"$build/judge/judge" __slugs >"$copy/original.txt"
grep -qx draws "$copy/original.txt" && fail "the original checkout lists the copy's problem"
"$copy/build/judge/judge" run draws --reference --format json >"$copy/draws.json" ||
  { cat "$copy/draws.json"; fail "the copy's problem was not accepted"; }
[ -d "$copy/build/runners" ] || fail "the copy did not cache its runners in its own build tree"
JUDGE_ROOT=$source "$copy/build/judge/judge" __slugs >"$copy/overridden.txt"
grep -qx draws "$copy/overridden.txt" && fail "JUDGE_ROOT was not honoured"
echo "moved checkout: ok"
