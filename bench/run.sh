#!/usr/bin/env bash
# Prints, for every problem, the judge's latency (cold, after an edit of a
# correct file, after an edit of a wrong one: its first failure on screen
# and its verdict, unchanged), the compile of the file alone and the
# ratios; then `judge grade` throughput on a class of 40 mixed submissions
# per problem, and the throughput of reference solutions against naive
# baselines.
# Usage: bench/run.sh [PROBLEM...]   (default: every problem)
#   JUDGE=PATH   time another build of the judge (its own checkout's problems)
#   RUNS=N       runs per median (default 3)
#   GRADE=0      skip the grade throughput; LATENCY=0 skip the latency table;
#   NAIVE=0      skip the reference-against-naive throughput
#   BASE=PATH    pair the grade throughput with another build of the judge:
#                the two graded alternately, RUNS times each, and the median
#                of the per-pair ratios printed
#   SHARED=0     grade without the default cache's built inputs (below)
# The latency table's runs use a cache of their own and nothing else: cold
# is a first run on a fresh machine. Each grade uses a fresh cache of its
# own too, which takes the precompiled preludes and adapter objects from
# the judge's default cache (JUDGE_DEFAULT_CACHE_DIR, docs/cli.md), built
# first by judging the reference there, as any earlier run on the machine
# leaves it; SHARED=0 makes the grade build them itself.
# Figures are medians; see docs/performance.md for how to read them.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
if [ -z "${JUDGE:-}" ]; then
  "$root/bin/setup"
  judge="$root/build/judge/judge"
else
  judge=$JUDGE
fi
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cxx=${CXX:-c++}
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(temperature top_k top_p repetition_penalty kv_cache beam_search speculative_decoding)

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
repeat() { for ((i = 1; i <= runs; ++i)); do "$@"; done; }

time_judge() {  # cache_dir solution -> seconds
  local start
  start=$(now)
  JUDGE_CACHE_DIR="$1" JUDGE_DEFAULT_CACHE_DIR="$1" "$judge" run "$problem" --solution "$2" --format json >/dev/null ||
    true
  seconds "$start" "$(now)"
}
# The text report as a learner reads it: "FIRST VERDICT" seconds, to the
# first FAIL line on screen and to the end.
time_wrong() {  # cache_dir solution
  local start first="" line
  start=$(now)
  while IFS= read -r line; do
    [ -z "$first" ] && [[ $line == *"FAIL  "* ]] && first=$(now)
  done < <(JUDGE_CACHE_DIR="$1" JUDGE_DEFAULT_CACHE_DIR="$1" "$judge" run "$problem" --solution "$2" 2>&1 || true)
  local end
  end=$(now)
  echo "$(seconds "$start" "${first:-$end}") $(seconds "$start" "$end")"
}
edit() { echo "// edit $RANDOM$RANDOM" >>"$1"; }
# The first wrong_answer solution solutions.yaml lists: the typical wrong file.
first_wrong() {
  awk '$1 == "-" && $2 == "file:" { file = $3 } $1 == "verdict:" && $2 == "wrong_answer" && file != "" { print file; exit }' \
    "$root/solutions/$1/solutions.yaml"
}
compile_alone() {  # solution -> seconds
  # The learner's file compiled on its own, with the types the problem
  # provides (and Eigen) available, as an editor's build would.
  local provided=() start
  grep -q KVCache "$1" && provided=(-include judge/kv_cache.hpp)
  grep -q LogProbFn "$1" && provided=(-include judge/beam_search.hpp)
  start=$(now)
  "$cxx" -std=c++20 -O2 -I"$root/harness/include" -isystem /usr/include/eigen3 "${provided[@]}" \
    -x c++ -c "$1" -o "$work/alone.o" 2>/dev/null
  seconds "$start" "$(now)"
}

if [ "${LATENCY:-1}" != 0 ]; then
echo "latency of judge run (seconds; median of $runs, cold: 1 run)"
echo "  edited: after an edit of a correct file (JSON report); wrong: after an edit of a wrong one, to its"
echo "  first FAIL line of the text report (quick preview included) and to its verdict; alone: compile-alone"
echo "  of the correct file and of the wrong one; ratios are to the same file's compile-alone, each judge run"
echo "  paired with one (medians of the per-pair ratios)"
printf "%-21s %6s %7s %7s %7s %7s %7s %8s %9s %7s\n" problem cold edited cached alone wrong-1st wrong-end alone-w \
  "edited/a" "1st/a-w"
for problem in "${problems[@]}"; do
  solution="$work/$problem.hpp"
  cp "$root/solutions/$problem/reference.hpp" "$solution"
  cache="$work/cache-$problem"
  cold=$(time_judge "$cache" "$solution")
  # Each judge run is paired with a compile-alone of the same file just
  # after it, so that a slower minute of the machine moves both; the
  # ratios are medians of the per-pair ratios.
  edited_pairs=$(repeat eval 'edit "$solution"; echo "$(time_judge "$cache" "$solution") $(compile_alone "$solution")"')
  edited=$(echo "$edited_pairs" | awk '{ print $1 }' | median)
  alone=$(echo "$edited_pairs" | awk '{ print $2 }' | median)
  cached=$(repeat time_judge "$cache" "$solution" | median)
  wrong="$work/${problem}_wrong.hpp"
  cp "$root/solutions/$problem/$(first_wrong "$problem")" "$wrong"
  wrong_pairs=$(repeat eval 'edit "$wrong"; echo "$(time_wrong "$cache" "$wrong") $(compile_alone "$wrong")"')
  first=$(echo "$wrong_pairs" | awk '{ print $1 }' | median)
  verdict=$(echo "$wrong_pairs" | awk '{ print $2 }' | median)
  alone_wrong=$(echo "$wrong_pairs" | awk '{ print $3 }' | median)
  printf "%-21s %6.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %8.2f %9.2f\n" "$problem" "$cold" "$edited" "$cached" \
    "$alone" "$first" "$verdict" "$alone_wrong" "$(echo "$edited_pairs" | awk '{ print $1 / $2 }' | median)" \
    "$(echo "$wrong_pairs" | awk '{ print $1 / $3 }' | median)"
done
fi

# A class of 40 for `judge grade`: the reference and every accepted and
# wrong solution of the package in turn, with one that crashes at start,
# one that throws on every call (the stub), and one that hangs at start.
make_class() {  # problem dir
  local package="$root/solutions/$1" files=() i
  files=("$package/reference.hpp")
  for file in "$package"/accepted/*.hpp "$package"/wrong/*.hpp; do [ -e "$file" ] && files+=("$file"); done
  mkdir -p "$2"
  for ((i = 0; i < 37; ++i)); do
    { cat "${files[i % ${#files[@]}]}"; echo "// submission $i"; } >"$2/student_$i.hpp"
  done
  { echo '#include <cstdlib>'; echo 'static const int crash_at_start = (std::abort(), 0);'; cat "$package/reference.hpp"; } \
    >"$2/student_crash.hpp"
  cp "$root/problems/$1/stub.hpp" "$2/student_stub.hpp"
  { echo 'static const int hang_at_start = [] { for (;;) { volatile int spin = 0; (void)spin; } return 0; }();'
    cat "$package/reference.hpp"; } >"$2/student_hang.hpp"
}

grade_seconds() {  # judge problem class -> seconds for grading the class in a fresh cache
  local cache start
  cache=$(mktemp -d "$work/grade-cache-XXXXXX")
  rm -rf "$3/.judge-grade"
  start=$(now)
  if [ "${SHARED:-1}" = 0 ]; then
    JUDGE_CACHE_DIR="$cache" JUDGE_DEFAULT_CACHE_DIR="$cache" "$1" grade "$2" "$3" >/dev/null 2>&1 || true
  else
    JUDGE_CACHE_DIR="$cache" "$1" grade "$2" "$3" >/dev/null 2>&1 || true
  fi
  seconds "$start" "$(now)"
  rm -rf "$cache" "$3/.judge-grade"
}
per_minute() { awk -v s="$1" 'BEGIN { printf "%.1f", 40 * 60 / s }'; }

if [ "${GRADE:-1}" != 0 ]; then
  echo
  if [ "${SHARED:-1}" = 0 ]; then
    echo "judge grade throughput, a class of 40 (correct, wrong, crashing, the stub, one hang), nothing cached:"
  else
    echo "judge grade throughput, a class of 40 (correct, wrong, crashing, the stub, one hang), a fresh cache"
    echo "  taking the default cache's precompiled preludes and adapter objects:"
  fi
  for problem in "${problems[@]}"; do
    [ "${SHARED:-1}" = 0 ] || "$judge" run "$problem" --reference >/dev/null 2>&1 || true  # the default cache's inputs
    class="$work/class-$problem"
    make_class "$problem" "$class"
    if [ -z "${BASE:-}" ]; then
      elapsed=$(grade_seconds "$judge" "$problem" "$class")
      printf "  %-21s %6.1f s  %6.1f submissions per minute\n" "$problem" "$elapsed" "$(per_minute "$elapsed")"
      continue
    fi
    # Paired: the base and this judge alternately, so that a change in the
    # machine's load hits both; the ratio is base seconds / these seconds.
    pairs=$(for ((i = 1; i <= runs; ++i)); do
      b=$(grade_seconds "$BASE" "$problem" "$class")
      c=$(grade_seconds "$judge" "$problem" "$class")
      echo "$b $c"
    done)
    base_median=$(echo "$pairs" | awk '{ print $1 }' | median)
    this_median=$(echo "$pairs" | awk '{ print $2 }' | median)
    pair_ratio=$(echo "$pairs" | awk '{ print $1 / $2 }' | median)
    printf "  %-21s base %6.1f/min  this %6.1f/min  paired ratio %s (median of %d)\n" "$problem" \
      "$(per_minute "$base_median")" "$(per_minute "$this_median")" "$pair_ratio" "$runs"
  done
fi

[ "${NAIVE:-1}" != 0 ] || exit 0
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
