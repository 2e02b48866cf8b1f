#!/usr/bin/env bash
# The judge in a container whose seccomp profile takes user namespaces and
# Landlock away, as Docker's default profile does (container_profile.cpp):
# there is no file sandbox, so other people's code (grade, the Gradescope
# and Exercism formats, another user's file, in `run` and in the page of
# `judge serve`) is refused in one line that
# says what is missing and how to get it, unless --trust-submissions; a
# learner's own file is judged, and its verdict says what it ran without.
# As root and as nobody.
# Usage: container_test.sh JUDGE CONTAINER_PROFILE SOURCE_DIR
set -euo pipefail
judge=$1 profile=$2 source=$3
if [ "$(id -u)" != 0 ]; then
  echo "FAIL: this test becomes nobody and hands files to it, which needs root" >&2
  exit 1
fi
source "$(dirname "$0")/nobody.sh"
scratch=$(mktemp -d)
trap 'close_for_nobody; rm -rf "$scratch"' EXIT
chmod 755 "$scratch"
open_for_nobody "$judge" "$profile" "$source"
fail() { echo "FAIL ($who): $*" >&2; exit 1; }
reference=$source/solutions/temperature/reference.hpp

# In the container, as $1 (root or nobody), with the judge's files of its own.
contained() {
  local as=()
  [ "$who" = nobody ] && as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  local exec=()
  [ -n "${exec_contained:-}" ] && exec=(exec)
  "${exec[@]}" "$profile" "${as[@]}" env HOME="$home" JUDGE_CACHE_DIR="$home/cache" \
    JUDGE_WORKSPACE="$home/workspace" "$judge" "$@"
}

for who in root nobody; do
  home=$scratch/$who
  other=$([ "$who" = root ] && echo nobody || echo root)
  mkdir -p "$home/class" "$home/mine" "$home/theirs"
  cp "$reference" "$home/class/alice.hpp"
  cp "$reference" "$home/class/bob.hpp"
  cp "$reference" "$home/mine/own.hpp"
  cp "$reference" "$home/theirs/someone.hpp"
  chmod -R a+rX "$home"
  chown -R "$who" "$home/mine" "$home"
  chown -R "$other" "$home/theirs/someone.hpp" "$home/class"
  chown "$who" "$home/class"

  doctor=$(contained doctor --format json) || fail "judge doctor failed"
  python3 - "$doctor" <<'EOF' || fail "doctor does not say that other people's code is refused: $doctor"
import json, sys
report = json.loads(sys.argv[1])
others = report["others_code"]
assert not others["allowed"], others
gap = [g for g in others["missing"] if g["protection"] == "file sandbox"]
assert gap and "Landlock" in gap[0]["how"] and "unshare" in gap[0]["how"], others
EOF

  status=0
  contained grade temperature "$home/class" >"$home/grade.out" 2>"$home/grade.err" || status=$?
  [ "$status" = 2 ] || fail "grade exited $status, not 2: $(cat "$home/grade.out" "$home/grade.err")"
  [ "$(wc -l <"$home/grade.err")" = 1 ] || fail "the refusal is not one line: $(cat "$home/grade.err")"
  grep -q "grade: refusing to judge other people's code here: no file sandbox" "$home/grade.err" ||
    fail "grade did not refuse for want of a file sandbox: $(cat "$home/grade.err")"
  grep -q "judge doctor" "$home/grade.err" && grep -q -- "--trust-submissions" "$home/grade.err" ||
    fail "the refusal does not say where to look and how to go on: $(cat "$home/grade.err")"
  [ ! -e "$home/class/.judge-grade" ] || fail "grade judged something before refusing"

  for format in gradescope exercism; do
    status=0
    contained run temperature --solution "$home/class/alice.hpp" --format "$format" >"$home/$format.json" \
      2>"$home/$format.err" || status=$?
    [ "$status" = 2 ] || fail "--format $format exited $status, not 2"
    grep -q "refusing to judge other people's code here: no file sandbox" "$home/$format.json" ||
      fail "--format $format's results do not say why nothing was judged: $(cat "$home/$format.json")"
  done

  status=0
  contained run temperature --solution "$home/theirs/someone.hpp" >"$home/theirs.out" 2>&1 || status=$?
  [ "$status" = 2 ] && grep -q "run: refusing to judge other people's code here" "$home/theirs.out" ||
    fail "another user's file was judged without a file sandbox: $(cat "$home/theirs.out")"

  contained run temperature --solution "$home/mine/own.hpp" >"$home/own.out" 2>&1 ||
    fail "the learner's own file was not judged: $(cat "$home/own.out")"
  grep -q "note: your code ran without the whole sandbox: no file sandbox" "$home/own.out" ||
    fail "the verdict does not say what it ran without: $(cat "$home/own.out")"
  contained run temperature --solution "$home/mine/own.hpp" --format json --no-cache >"$home/own.json" ||
    fail "the learner's own file was not judged (JSON)"
  grep -q '"sandbox_note":"your code ran without the whole sandbox: no file sandbox' "$home/own.json" ||
    fail "the JSON result has no sandbox_note: $(head -c 2000 "$home/own.json")"

  contained grade temperature "$home/class" --out "$home/trusted" --trust-submissions >"$home/trusted.out" \
    2>"$home/trusted.err" || fail "grade --trust-submissions failed: $(cat "$home/trusted.out" "$home/trusted.err")"
  grep -q "judged with --trust-submissions, without the whole sandbox: no file sandbox" "$home/trusted.err" ||
    fail "trusting does not say what it gives up: $(cat "$home/trusted.err")"
  [ "$(grep -c ',accepted,' "$home/trusted/summary.csv")" = 2 ] ||
    fail "the trusted grade did not accept both copies of the reference: $(cat "$home/trusted/summary.csv")"
  # The page judges the workspace's file: one another user wrote is refused.
  mkdir -p "$home/workspace"
  cp "$reference" "$home/workspace/temperature.hpp"
  chown "$who" "$home/workspace"
  chown "$other" "$home/workspace/temperature.hpp"
  # exec: the background job is the judge itself, for kill to reach it.
  (exec_contained=1 contained serve --port 0 --no-open) >"$home/serve.out" 2>"$home/serve.err" &
  serve_pid=$!
  for _ in $(seq 100); do grep -q "token=" "$home/serve.out" 2>/dev/null && break; sleep 0.1; done
  url=$(grep -o 'http://127.0.0.1:[0-9]*/?token=[0-9a-zA-Z_-]*' "$home/serve.out" | head -1)
  [ -n "$url" ] || { kill "$serve_pid"; fail "serve printed no URL: $(cat "$home/serve.out" "$home/serve.err")"; }
  events=$(python3 - "$url" <<'PAGE' 2>&1) || true
import sys, urllib.request
base, token = sys.argv[1].split("/?token=")
request = urllib.request.Request(base + "/api/run/temperature", data=b"", method="POST",
                                 headers={"X-Judge-Token": token})
print(urllib.request.urlopen(request, timeout=120).read().decode())
PAGE
  kill "$serve_pid"; wait "$serve_pid" || true
  grep -q "refusing to judge other people's code here: no file sandbox" <<<"$events" ||
    fail "the page judged another user's file without a file sandbox: $events"
  grep -q '^event: result' <<<"$events" && fail "the page judged another user's file: $events"
  echo "ok: $who"
done
echo "container without a file sandbox: ok"
