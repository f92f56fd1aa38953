#!/usr/bin/env bash
# Runs every broken input of test/bad_inputs (docs/reliability.md, "Bad-input corpus"):
#   check.sh PERFMODEL [--regen]
# cases.tsv has one case a line, three tab-separated fields: the input file (relative to the
# source root, where this runs), the perfmodel arguments (@FILE@ is replaced by the file,
# @TMP@ by a fresh temporary folder) and the message expected. A case passes when perfmodel
# exits with status 2, prints nothing on stdout, and stderr is exactly that one line. With
# --regen the third field is rewritten from what perfmodel prints now (review the diff).
set -u
bin=$1
regen=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
manifest=test/bad_inputs/cases.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
count=0
: >"$tmp/regen"
while IFS=$'\t' read -r file args want; do
  [ -z "$file" ] && continue
  case $file in \#*) printf '%s\t%s\t%s\n' "$file" "$args" "$want" >>"$tmp/regen"; continue ;; esac
  count=$((count + 1))
  [ -f "$file" ] || { echo "$file: missing (listed in $manifest)"; fail=1; continue; }
  run=$(mktemp -d "$tmp/run.XXXXXX")
  cmd=${args//@FILE@/$file}
  cmd=${cmd//@TMP@/$run}
  eval "set -- $cmd"
  "$bin" "$@" >"$run/.stdout" 2>"$run/.stderr"
  status=$?
  got=$(cat "$run/.stderr")
  lines=$(wc -l <"$run/.stderr")
  printf '%s\t%s\t%s\n' "$file" "$args" "$got" >>"$tmp/regen"
  [ -n "$regen" ] && continue
  problem=
  [ "$status" = 2 ] || problem="exit status $status, expected 2"
  [ -s "$run/.stdout" ] && problem="${problem:+$problem; }wrote to stdout"
  [ "$lines" = 1 ] || problem="${problem:+$problem; }stderr has $lines lines, expected 1"
  [ "$got" = "$want" ] || problem="${problem:+$problem; }message differs"
  if [ -n "$problem" ]; then
    echo "FAIL $file ($problem)"
    echo "  command:  perfmodel $cmd"
    echo "  expected: $want"
    echo "  got:      $(head -c 2000 "$run/.stderr")"
    fail=1
  fi
done <"$manifest"
if [ -n "$regen" ]; then
  cp "$tmp/regen" "$manifest"
  echo "rewrote $manifest ($count cases)"
  exit 0
fi
[ "$fail" = 0 ] && echo "$count bad inputs: each exits 2 with its one-line message"
exit $fail
