#!/usr/bin/env bash
# `cmake --install` gives a judge that runs from its prefix: it judges the
# installed problems, finds them again after the prefix is moved, keeps its
# cache and workspace in the user's directories, runs the lab on its
# models, and JUDGE_ROOT still points it at a course's own problems.
# Usage: installed_judge_test.sh BUILD_DIR SOURCE_DIR VERSION
set -euo pipefail
build=$1 source=$2 version=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
unset JUDGE_ROOT JUDGE_WORKSPACE JUDGE_CACHE_DIR XDG_CACHE_HOME XDG_DATA_HOME
export HOME=$scratch/home
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$scratch/installed" >"$scratch/install.log" ||
  { cat "$scratch/install.log"; fail "cmake --install failed"; }
for file in bin/judge lib/judge/libjudge_harness.a share/judge/harness/include/judge_harness/runner.hpp \
  share/judge/model/lab_models.bin; do
  [ -f "$scratch/installed/$file" ] || fail "no $file in the prefix"
done
[ "$("$scratch/installed/bin/judge" --version)" = "judge $version" ] || fail "judge --version is not 'judge $version'"

# Moved, the prefix is still whole: nothing points back at where it was.
mv "$scratch/installed" "$scratch/moved"
judge=$scratch/moved/bin/judge
# A problem only the moved prefix has, so the listing proves whose problems it reads.
fixture=$source/tests/fixtures/draws
cp -r "$fixture/problems" "$fixture/solutions" "$fixture/harness" "$scratch/moved/share/judge/"
"$judge" list >"$scratch/list.txt" || { cat "$scratch/list.txt"; fail "judge list failed"; }
grep -q "draws" "$scratch/list.txt" || { cat "$scratch/list.txt"; fail "the installed judge does not list its own problems"; }
"$judge" run draws --reference --format json >"$scratch/draws.json" || { cat "$scratch/draws.json"; fail "the marker problem's reference was not accepted"; }
# And an installed course problem: the first one, whichever it is.
first=$("$judge" __slugs | grep -vx draws | head -n 1)
[ -n "$first" ] || fail "no installed course problem"
"$judge" run "$first" --reference --format json >"$scratch/first.json" ||
  { head -c 2000 "$scratch/first.json"; fail "$first's reference was not accepted from the prefix"; }
grep -q '"verdict":"accepted"' "$scratch/first.json" || fail "$first: no accepted verdict in the JSON"
[ -d "$HOME/.cache/judge" ] || fail "the installed judge did not cache runners under ~/.cache/judge"
"$judge" start draws >/dev/null 2>&1
[ -f "$HOME/.local/share/judge/workspace/draws.hpp" ] || fail "judge start did not write to ~/.local/share/judge/workspace"

# The lab reads its models from the prefix (beam search: one part to build).
"$judge" lab --beam 1 --max-new-tokens 3 --format json >"$scratch/lab.json" ||
  { head -c 2000 "$scratch/lab.json"; fail "judge lab failed from the prefix"; }
grep -q '"model_log_prob"' "$scratch/lab.json" || fail "judge lab from the prefix returned no beam"

# The installed source is whole enough for an exported autograder.
"$judge" export gradescope draws --out "$scratch/autograder.zip" >/dev/null
unzip -l "$scratch/autograder.zip" >"$scratch/autograder.txt"
grep -q "judge/judge/src/cli/main.cpp" "$scratch/autograder.txt" || fail "the export from the prefix lacks the judge's source"

# JUDGE_ROOT: a course's own folder, here the source tree without the marker.
JUDGE_ROOT=$source "$judge" __slugs >"$scratch/root.txt"
grep -qx draws "$scratch/root.txt" && fail "JUDGE_ROOT did not replace the installed problems"
grep -qx "$first" "$scratch/root.txt" || fail "JUDGE_ROOT's problems are not listed"
echo "installed judge: ok"
