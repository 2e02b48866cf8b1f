# Sourced by the tests that run the judge as `nobody`: as_nobody runs a
# command as nobody, and open_for_nobody makes every directory from / down
# to each given path searchable by others (a checkout in a 0700 temporary
# directory), recording what it opened; close_for_nobody (put it in an EXIT
# trap) closes them again.
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

opened_for_nobody=()
open_for_nobody() {
  local path
  for path in "$@"; do
    path=$(readlink -f "$path")
    while [ "$path" != / ]; do
      if [ -d "$path" ] && ! stat -c %A "$path" | grep -q '^d.\{8\}[xt]'; then
        chmod o+x "$path"
        opened_for_nobody+=("$path")
      fi
      path=$(dirname "$path")
    done
  done
}

close_for_nobody() {
  local dir
  for dir in "${opened_for_nobody[@]}"; do chmod o-x "$dir"; done
  opened_for_nobody=()
}
