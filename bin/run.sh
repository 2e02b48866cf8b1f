#!/usr/bin/env bash
# Exercism's test-runner entry point: bin/run.sh SLUG INPUT_DIR OUTPUT_DIR.
# Judges INPUT_DIR/SLUG.hpp (a kebab-case slug also finds the snake_case
# problem and file: top-p -> top_p, top_p.hpp) and writes
# OUTPUT_DIR/results.json in the interface's version 3. Exits 0 whatever
# the result, as the interface requires; only a missing argument or an
# unwritable OUTPUT_DIR exits non-zero. The judge is JUDGE_BINARY, else the
# build tree's beside this script.
set -uo pipefail

if [ $# -lt 3 ]; then
  echo "usage: $0 SLUG INPUT_DIR OUTPUT_DIR" >&2
  exit 2
fi
slug=$1 input=${2%/} output=${3%/}
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
judge=${JUDGE_BINARY:-$root/build/judge/judge}
mkdir -p "$output" || exit 2
results=$output/results.json

problem=$slug
"$judge" __slugs 2>/dev/null | grep -qxF -- "$problem" || problem=${slug//-/_}
solution=$input/$slug.hpp
[ -f "$solution" ] || [ ! -f "$input/$problem.hpp" ] || solution=$input/$problem.hpp

scratch=$(mktemp -d) || exit 2
trap 'rm -rf "$scratch"' EXIT
# The judge writes results.json itself, an error one included when it
# cannot judge (unknown exercise, no such file); attempts go to a scratch
# workspace, so nothing of a learner's run is kept.
JUDGE_WORKSPACE=$scratch/workspace "$judge" run "$problem" --solution "$solution" --format exercism \
  >"$scratch/results.json" 2>"$scratch/stderr"
status=$?
if [ -s "$scratch/results.json" ]; then
  cp "$scratch/results.json" "$results" || exit 2
else  # the judge did not run at all: its stderr is in the runner's log
  cat "$scratch/stderr" >&2
  printf '{"version": 3, "status": "error", "message": "the test runner could not start the judge (status %d)", "tests": []}\n' \
    "$status" >"$results"
fi
exit 0
