#!/usr/bin/env bash
# Every JSON output of the judge, produced for real on the draws fixture
# (tests/fixtures/draws), validated against its schema in docs/schemas/
# with Debian's python3-jsonschema: run (one problem, a failure with hints,
# a compile error, --all), list, history, doctor, try (a value op, a
# sampler, a compile error), and grade's summary.json and results files.
# A document without schema_version must be refused, so the check bites.
# Usage: json_schemas_test.sh JUDGE_BINARY SOURCE_DIR
set -euo pipefail
judge_binary=$1
source_dir=$2
schemas="$source_dir/docs/schemas"
check() { /usr/bin/python3 "$source_dir/tests/json_schema_check.py" "$schemas" "$@"; }
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null ||
  { echo "python3-jsonschema is missing (bin/setup installs it)"; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fixture="$source_dir/tests/fixtures/draws"
cp -r "$source_dir/harness" "$root/"
cp -r "$fixture/harness/." "$root/harness/"
cp -r "$fixture/problems" "$fixture/solutions" "$root/"
# A known mistake, so that a failing run carries hints.
cat >"$root/solutions/draws/solutions.yaml" <<'YAML'
reference: reference.hpp
accepted: []
wrong:
  - file: wrong/probs_unnormalized.hpp
    verdict: wrong_answer
    mistake: the probabilities are not divided by their sum
YAML
export JUDGE_ROOT=$root JUDGE_WORKSPACE=$root/workspace
out=$root/out
mkdir -p "$out"
# Runs the judge, keeping stdout in $out/NAME.json; a status of 0 or 1 is a
# judgement, 2 a failure of the judge.
judged() {
  local name=$1; shift
  local status=0
  "$judge_binary" "$@" >"$out/$name.json" || status=$?
  [ "$status" -le 1 ] || { echo "judge $* exited $status"; exit 1; }
}

printf '#include <vector>\nthis does not compile\n' >"$root/broken.hpp"
judged run_reference run draws --reference --format json
judged run_wrong run draws --solution "$root/solutions/draws/wrong/probs_unnormalized.hpp" --format json
judged run_compile_error run draws --solution "$root/broken.hpp" --format json
judged run_all_none run --all --format json
"$judge_binary" start draws >/dev/null
cp "$root/solutions/draws/wrong/probs_unnormalized.hpp" "$root/workspace/draws.hpp"
judged run_all run --all --format json
judged list list --format json
judged history history draws --format json
judged doctor doctor --format json
judged try_value try draws --reference --input '{logits: [1, 0, -.inf]}' --format json
judged try_sampler try draws --reference --op softmax_sample --draws 2000 --input '{logits: [1, 0]}' --format json
judged try_compile_error try draws --solution "$root/broken.hpp" --input '{logits: [1, 0]}' --format json
# The lab plugs parts into the repository's own problems, not the fixture's.
lab() {
  local name=$1; shift
  local status=0
  env -u JUDGE_ROOT JUDGE_WORKSPACE="$root/lab-workspace" "$judge_binary" "$@" >"$out/$name.json" || status=$?
  [ "$status" -le 1 ] || { echo "judge $* exited $status"; exit 1; }
}
lab lab_reference lab --max-new-tokens 8 --steps --sweep temperature=0.5,1.5 --cache-cost --format json
lab lab_wrong lab --max-new-tokens 8 --mine "kv_cache=$source_dir/solutions/kv_cache/wrong/wrong_group_mapping.hpp" --format json
lab lab_speculative lab --max-new-tokens 12 --draft-tokens 3 --format json
lab lab_beam lab --max-new-tokens 20 --beam 3 --format json
lab lab_beam_wrong lab --max-new-tokens 40 --beam 3 --mine "beam_search=$source_dir/solutions/beam_search/wrong/stops_at_first_finished.hpp" --format json
lab lab_compile_error lab --max-new-tokens 8 --mine "top_p=$root/broken.hpp" --format json

submissions=$root/submissions
mkdir -p "$submissions"
cp "$root/solutions/draws/reference.hpp" "$submissions/good.hpp"
cp "$root/solutions/draws/wrong/probs_unnormalized.hpp" "$submissions/wrong.hpp"
cp "$root/broken.hpp" "$submissions/broken.hpp"
"$judge_binary" grade draws "$submissions" --trust-submissions >/dev/null
# One share of the folder, and the report merged from both shares.
"$judge_binary" grade draws "$submissions" --trust-submissions --shard 1/2 --out "$root/shard-1" >/dev/null
"$judge_binary" grade draws "$submissions" --trust-submissions --shard 2/2 --out "$root/shard-2" >/dev/null
"$judge_binary" grade --merge "$root/shard-1" "$root/shard-2" --out "$root/merged" >/dev/null

check run.json "$out"/run_*.json
check list.json "$out/list.json"
check history.json "$out/history.json"
check doctor.json "$out/doctor.json"
check try.json "$out"/try_*.json
check lab.json "$out"/lab_*.json
check grade-summary.json "$submissions/.judge-grade/summary.json" "$root"/shard-*/summary.json "$root/merged/summary.json"
check grade-result.json "$submissions"/.judge-grade/results/*.json

# What the outputs must show for the check to mean something.
grep -q '"hints"' "$out/run_wrong.json" || { echo "the wrong run has no hints to check"; exit 1; }
grep -q '"tallies"' "$out/try_sampler.json" || { echo "the sampler try has no tallies to check"; exit 1; }
grep -q '"stage"' "$out/lab_wrong.json" || { echo "the wrong lab run has no divergence to check"; exit 1; }
grep -q '"measured_acceptance"' "$out/lab_speculative.json" || { echo "the speculative lab run has no figures"; exit 1; }
grep -q '"model_log_prob"' "$out/lab_beam.json" || { echo "the beam lab run has no hypotheses to check"; exit 1; }
grep -q '"what"' "$out/lab_beam_wrong.json" || { echo "the wrong beam lab run has no difference to check"; exit 1; }
grep -q '"without_cache_ms"' "$out/lab_reference.json" || { echo "the lab run has no cache cost to check"; exit 1; }
[ "$(ls "$submissions"/.judge-grade/results/*.json | wc -l)" -eq 3 ] || { echo "not three result files"; exit 1; }
grep -q '"shard"' "$root/shard-1/summary.json" || { echo "a shard's summary does not say which share it is"; exit 1; }
for file in "$out"/*.json "$submissions/.judge-grade/summary.json"; do
  grep -q '"schema_version":1' <(tr -d ' \n' <"$file") || { echo "$file: no schema_version 1"; exit 1; }
done

# The schemas refuse an output without its version, or with another.
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["schema_version"]; json.dump(d, open(sys.argv[2], "w"))' \
  "$out/list.json" "$root/unversioned.json"
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["schema_version"]=2; json.dump(d, open(sys.argv[2], "w"))' \
  "$out/run_reference.json" "$root/version_two.json"
for file in "$root/unversioned.json:list.json" "$root/version_two.json:run.json"; do
  if check "${file#*:}" "${file%%:*}" >/dev/null; then echo "${file%%:*} passed ${file#*:}"; exit 1; fi
done
echo "json schemas: ok"
