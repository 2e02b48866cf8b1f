#!/usr/bin/env bash
# The lab's speed: `judge lab --reference-only` RUNS times (default 5) in
# each of plain decoding, speculative decoding (4 drafts a round) and
# plain decoding with a part of the learner's (the reference compared
# beside it), 200 new tokens each; prints each run's tokens a second and
# their median. Then beam search of width 4 over 200 tokens: the model calls
# a second of the reference's search (each one token's pass in the runner,
# the weights sent first). Then one --cache-cost table: a token's cost with and
# without the KV cache, the model's arithmetic alone. docs/lab.md quotes it.
# Usage: bench/lab.sh   (JUDGE=PATH another build of the judge, RUNS=N)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
judge=${JUDGE:-$root/build/judge/judge}
runs=${RUNS:-5}
workspace=$(mktemp -d)
trap 'rm -rf "$workspace"' EXIT
export JUDGE_WORKSPACE=$workspace

rate() { /usr/bin/python3 -c 'import json, sys; print("%.0f" % json.load(sys.stdin)["yours"]["tokens_per_second"])'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

measure() {
  local name=$1; shift
  local rates=()
  "$judge" lab --max-new-tokens 200 "$@" --format json >/dev/null || true  # builds the parts' runners
  for _ in $(seq "$runs"); do
    rates+=("$("$judge" lab --max-new-tokens 200 "$@" --format json | rate)")
  done
  printf '%-40s tokens a second: %s; median %s\n' "$name" "${rates[*]}" "$(printf '%s\n' "${rates[@]}" | median)"
}

measure "plain, every part the reference's" --reference-only
measure "speculative, 4 drafts a round" --reference-only --draft-tokens 4
accepted=$(ls "$root"/solutions/top_p/accepted/*.hpp | head -1)
measure "plain, top_p yours, the reference beside" --mine "top_p=$accepted"
calls_rate() {
  /usr/bin/python3 -c 'import json, sys; b = json.load(sys.stdin)["beam"]["yours"]; print("%.0f" % (b["model_calls"] / b["seconds"]))'
}
"$judge" lab --reference-only --beam 4 --max-new-tokens 200 --format json >/dev/null || true
rates=()
for _ in $(seq "$runs"); do
  rates+=("$("$judge" lab --reference-only --beam 4 --max-new-tokens 200 --format json | calls_rate)")
done
printf '%-40s model calls a second: %s; median %s\n' "beam search, width 4" "${rates[*]}" \
  "$(printf '%s\n' "${rates[@]}" | median)"
"$judge" lab --reference-only --max-new-tokens 1 --cache-cost | sed -n '/one token.s cost/,$p'
