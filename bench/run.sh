#!/usr/bin/env bash
# Prints the judge's latency per problem (cold, after an edit, unchanged) and
# the throughput of reference solutions against naive baselines.
# Usage: bench/run.sh [PROBLEM...]   (default: every problem)
# Figures are medians; see docs/performance.md for how to read them.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
"$root/bin/setup"
judge="$root/build/judge/judge"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cxx=${CXX:-c++}
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(temperature top_k top_p repetition_penalty kv_cache beam_search speculative_decoding)

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
time_judge() {  # cache_dir solution -> seconds
  local start end
  start=$(now)
  JUDGE_CACHE_DIR="$1" "$judge" run "$problem" --solution "$2" --format json >/dev/null || true
  end=$(now)
  seconds "$start" "$end"
}

echo "latency of judge run (seconds; median of 3, cold: 1 run)"
printf "%-22s %8s %8s %8s %14s %8s\n" problem cold edited cached "compile-alone" ratio
for problem in "${problems[@]}"; do
  solution="$work/$problem.hpp"
  cp "$root/solutions/$problem/reference.hpp" "$solution"
  cache="$work/cache-$problem"
  cold=$(time_judge "$cache" "$solution")
  edited=$(for i in 1 2 3; do echo "// edit $i" >>"$solution"; time_judge "$cache" "$solution"; done | median)
  cached=$(for i in 1 2 3; do time_judge "$cache" "$solution"; done | median)
  # The baseline: the learner's file compiled on its own, with the types the
  # problem provides (and Eigen) available, as an editor's build would.
  provided=()
  grep -q KVCache "$solution" && provided=(-include judge/kv_cache.hpp)
  grep -q LogProbFn "$solution" && provided=(-include judge/beam_search.hpp)
  alone=$(for i in 1 2 3; do
    start=$(now)
    "$cxx" -std=c++20 -O2 -I"$root/harness/include" -isystem /usr/include/eigen3 "${provided[@]}" \
      -x c++ -c "$solution" -o "$work/alone.o" 2>/dev/null
    seconds "$start" "$(now)"
  done | median)
  ratio=$(awk -v a="$edited" -v b="$alone" 'BEGIN { printf "%.2f", a / b }')
  printf "%-22s %8.2f %8.2f %8.2f %14.2f %8.2f\n" "$problem" "$cold" "$edited" "$cached" "$alone" "$ratio"
done

echo
echo "all problems, reference, nothing cached (seconds):"
start=$(now)
JUDGE_CACHE_DIR="$work/cache-all" "$judge" run --all --reference --format json >/dev/null
echo "  judge run --all --reference: $(seconds "$start" "$(now)")"

echo
echo "throughput (median ms per call)"
bench_one() {  # macro solution label
  "$cxx" -std=c++20 -O2 -I"$root/harness/include" -isystem /usr/include/eigen3 -D"$1" \
    -DSOLUTION="\"$2\"" "$root/bench/throughput.cpp" -o "$work/throughput" && "$work/throughput" | sed "s/^/  $3: /"
}
bench_one BENCH_TOP_K "$root/solutions/top_k/reference.hpp" "reference"
bench_one BENCH_TOP_K "$root/bench/naive/top_k_full_sort.hpp" "naive (full sort)"
bench_one BENCH_TOP_P "$root/solutions/top_p/reference.hpp" "reference"
bench_one BENCH_TOP_P "$root/bench/naive/top_p_repeated_argmax.hpp" "naive (repeated argmax)"
bench_one BENCH_KV_CACHE "$root/solutions/kv_cache/reference.hpp" "reference"
bench_one BENCH_KV_CACHE "$root/solutions/kv_cache/wrong/quadratic_normalizer.hpp" "naive (normalizer per row)"
