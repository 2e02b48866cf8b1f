#!/usr/bin/env bash
# Fuzzes the decoders of untrusted bytes with libFuzzer (clang): the runner
# channel's CBOR reader (wire_format_fuzz.cpp) and the YAML case-file reader
# (case_file_fuzz.cpp). Each target is built from the judge's sources with
# clang++ (-fsanitize=fuzzer,address,undefined), then run for SECONDS on a
# scratch copy of its corpus in tests/fuzz/corpus/TARGET (the seeds stay as
# they are; a finding is printed with its input). Exit 1 on any crash, leak,
# timeout or sanitizer report.
# Usage: tests/fuzz/run.sh SECONDS [TARGET...]   (default: every target)
#   FUZZ_KEEP=DIR  keep the grown corpora in DIR (to add interesting inputs
#                  to the seeds by hand)
set -euo pipefail
seconds=${1:?usage: tests/fuzz/run.sh SECONDS [TARGET...]}
shift
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
here="$root/tests/fuzz"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(wire_format case_file)
command -v clang++ >/dev/null || { echo "clang++ is missing: bin/setup --all-targets installs clang" >&2; exit 1; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I"$root/judge/src" -I"$root/harness/include")
# What each target is built from besides its own file.
sources_of() {
  case "$1" in
    wire_format) echo "$root/judge/src/run/wire_format.cpp" ;;
    case_file)
      echo "$root"/judge/src/package/{layout,problem,typed_values,value_type,yaml_reader,yaml_duplicate_keys,yaml_syntax_error}.cpp \
        "$root"/judge/src/util/{text,files}.cpp ;;
    *) echo "unknown fuzz target '$1'" >&2; exit 2 ;;
  esac
}
libraries_of() {
  case "$1" in
    case_file) echo "-lyaml-cpp -lfmt" ;;
    *) echo "" ;;
  esac
}

status=0
for target in "${targets[@]}"; do
  binary="$scratch/$target"
  # shellcheck disable=SC2046
  clang++ "${flags[@]}" "$here/${target}_fuzz.cpp" $(sources_of "$target") -o "$binary" $(libraries_of "$target") \
    >"$scratch/$target.build.log" 2>&1 || { cat "$scratch/$target.build.log" >&2; echo "fuzz: $target does not build" >&2; exit 1; }
  corpus="${FUZZ_KEEP:-$scratch}/$target.corpus"
  mkdir -p "$corpus"
  # The fuzzer writes a finding to -artifact_prefix; the seeds are read only.
  if "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=8192 -print_final_stats=1 \
      -artifact_prefix="$scratch/$target-" "$corpus" "$here/corpus/$target" >"$scratch/$target.log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$scratch/$target.log" | grep -o '[0-9]*$' || echo "?")
    echo "fuzz $target: $runs inputs in ${seconds} s, no finding"
  else
    status=1
    echo "fuzz $target: a finding" >&2
    tail -60 "$scratch/$target.log" >&2
    for artifact in "$scratch/$target-"*; do
      [ -f "$artifact" ] || continue
      echo "input ($artifact), base64:" >&2
      base64 -w 100 "$artifact" >&2
    done
  fi
done
exit "$status"
