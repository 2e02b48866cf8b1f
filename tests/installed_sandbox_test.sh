#!/usr/bin/env bash
# An installed judge keeps its own files out of every sandbox, whatever the
# prefix: installed under /usr/local, under /usr, and inside a library
# directory that every compile and runner sees, it judges the attacks in
# tests/fixtures/installed through `run` and `grade`, as root, as nobody
# without subordinate ids and as nobody with them. No attack may read,
# include or list the installed problems, hidden cases or reference.
#
# The installs go to a scratch root: the test re-runs itself in a mount
# namespace of its own, where an overlay over /usr takes every write (and
# a file bound over /etc/subuid lends nobody its ids), so the machine's
# /usr and /etc stay as they were. Needs root (unshare, mount).
# Usage: installed_sandbox_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2
if [ "$(id -u)" != 0 ]; then
  echo "FAIL: this test makes a scratch root with mount(8), which needs root" >&2
  exit 1
fi
if [ "${JUDGE_SCRATCH_ROOT:-}" != inside ]; then
  exec env JUDGE_SCRATCH_ROOT=inside unshare --mount --propagation private "$0" "$@"
fi

fail() { echo "FAIL: $*" >&2; exit 1; }
source "$(dirname "$0")/nobody.sh"
scratch=$(mktemp -d)
chmod 755 "$scratch"
mkdir -p "$scratch/upper" "$scratch/overlay-work"
mount -t overlay overlay -o "lowerdir=/usr,upperdir=$scratch/upper,workdir=$scratch/overlay-work" /usr
for file in subuid subgid; do
  cp "/etc/$file" "$scratch/$file" 2>/dev/null || : >"$scratch/$file"
  grep -v '^nobody:' "$scratch/$file" >"$scratch/$file.without" || true
  { cat "$scratch/$file.without"; echo "nobody:1879048192:65536"; } >"$scratch/$file.with"
  cp "$scratch/$file.without" "$scratch/$file.bound"
  mount --bind "$scratch/$file.bound" "/etc/$file"
done
unset JUDGE_ROOT JUDGE_WORKSPACE JUDGE_CACHE_DIR XDG_CACHE_HOME XDG_DATA_HOME JUDGE_SCRATCH_ROOT

# A directory every compile and runner sees: where the C library is.
library_dir=$(dirname "$(readlink -f "$(g++ -print-file-name=libc.so.6)")")
fixtures=$source/tests/fixtures/installed

# Judges the fixtures with the judge installed under $1, as $2 (root or
# nobody); $3 names the round in messages.
attack() {
  local prefix=$1 user=$2 who=$3
  local home=$scratch/home-$who-${prefix//\//_}
  mkdir -p "$home/class"
  for fixture in includes_installed_reference finds_the_installed_judge; do
    sed "s#@PREFIX@#$prefix#g" "$fixtures/$fixture.hpp" >"$home/class/$fixture.hpp"
  done
  chmod -R a+rX "$home"
  local as=()
  if [ "$user" = nobody ]; then
    chown -R nobody "$home"
    as=(as_nobody)
  fi
  local judge=("${as[@]}" env HOME="$home" "$prefix/bin/judge")
  local json
  json=$("${judge[@]}" run temperature --solution "$home/class/includes_installed_reference.hpp" --format json) &&
    fail "$who, $prefix: the include of the installed reference compiled"
  grep -q '"verdict":"compile_error"' <<<"$json" || fail "$who, $prefix: not a compile error: ${json:0:2000}"
  grep -qF "cannot open $prefix/share/judge/solutions/temperature/reference.hpp: a solution is one file" <<<"$json" ||
    fail "$who, $prefix: the include was not refused as a file of the judge's: ${json:0:2000}"
  json=$("${judge[@]}" run temperature --solution "$home/class/finds_the_installed_judge.hpp" --format json) ||
    fail "$who, $prefix: the probes were not accepted: ${json:0:2000}"
  grep -q '"verdict":"accepted"' <<<"$json" || fail "$who, $prefix: ${json:0:2000}"
  "${judge[@]}" grade temperature "$home/class" --out "$home/report" >"$home/grade.log" 2>&1 ||
    { cat "$home/grade.log"; fail "$who, $prefix: grade failed"; }
  grep -q '^"\?finds_the_installed_judge.hpp"\?,accepted,' "$home/report/summary.csv" ||
    { cat "$home/report/summary.csv"; fail "$who, $prefix: grade did not accept the probes"; }
  grep -q '^"\?includes_installed_reference.hpp"\?,compile_error,' "$home/report/summary.csv" ||
    { cat "$home/report/summary.csv"; fail "$who, $prefix: grade did not refuse the include"; }
  if grep -rq ESCAPED "$home/report"; then fail "$who, $prefix: an attack escaped in grade"; fi
  echo "ok: $who, installed under $prefix"
}

for prefix in /usr/local /usr "$library_dir/judge-prefix"; do
  cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" 2>&1 ||
    { cat "$scratch/install.log"; fail "cmake --install --prefix $prefix failed"; }
  [ -f "$prefix/share/judge/solutions/temperature/reference.hpp" ] || fail "the install under $prefix has no reference"
  attack "$prefix" root root
  cp "$scratch/subuid.without" "$scratch/subuid.bound"
  cp "$scratch/subgid.without" "$scratch/subgid.bound"
  attack "$prefix" nobody nobody
  command -v newuidmap >/dev/null || fail "newuidmap is missing (Debian package uidmap, which bin/setup installs)"
  cp "$scratch/subuid.with" "$scratch/subuid.bound"
  cp "$scratch/subgid.with" "$scratch/subgid.bound"
  attack "$prefix" nobody nobody-with-subordinate-ids
  rm -rf "$prefix/share/judge" "$prefix/lib/judge" "$prefix/bin/judge" "$prefix/bin/judge-sandbox-init" \
    "$prefix/share/doc/judge"
done
echo "installed judge's files stay out of every sandbox: ok"
