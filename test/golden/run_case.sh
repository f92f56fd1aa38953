#!/usr/bin/env bash
# Runs one golden CLI case: test/golden/<case>/cmd holds the perfmodel arguments (one line,
# shell words; the word @TMP@ is replaced by a fresh temporary directory). The case passes when
# stdout equals expected.out (when present), the exit status equals expected.status (default
# 0), stderr contains expected.err (when present, a fixed string), and stdout contains every
# line of expected.contains (when present: fixed strings, for outputs that hold measured times),
# stderr equals expected.stderr (when present: the whole message, e.g. that it is one line), and
# for each expected.file.NAME the file NAME the command wrote under @TMP@ contains every line of
# it (fixed strings).
set -u
bin=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=$(sed "s|@TMP@|$tmp|g" "$dir/cmd")
eval "set -- $args"
"$bin" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
status=$?
want_status=0
[ -f "$dir/expected.status" ] && want_status=$(cat "$dir/expected.status")
fail=0
if [ "$status" != "$want_status" ]; then
  echo "exit status $status, expected $want_status"; cat "$tmp/stderr"; fail=1
fi
if [ -f "$dir/expected.out" ] && ! diff -u "$dir/expected.out" "$tmp/stdout"; then
  echo "stdout differs from $dir/expected.out (regenerate with: $bin $args)"; fail=1
fi
if [ -f "$dir/expected.err" ] && ! grep -qF -- "$(cat "$dir/expected.err")" "$tmp/stderr"; then
  echo "stderr lacks: $(cat "$dir/expected.err")"; echo "stderr was:"; cat "$tmp/stderr"; fail=1
fi
if [ -f "$dir/expected.contains" ]; then
  while IFS= read -r line; do
    grep -qF -- "$line" "$tmp/stdout" || { echo "stdout lacks: $line"; fail=1; }
  done <"$dir/expected.contains"
fi
if [ -f "$dir/expected.stderr" ] && ! diff -u "$dir/expected.stderr" "$tmp/stderr"; then
  echo "stderr differs from $dir/expected.stderr"; fail=1
fi
for want in "$dir"/expected.file.*; do
  [ -e "$want" ] || continue
  name=${want##*/expected.file.}
  if [ ! -f "$tmp/$name" ]; then
    echo "the command wrote no @TMP@/$name"; fail=1; continue
  fi
  while IFS= read -r line; do
    grep -qF -- "$line" "$tmp/$name" || { echo "@TMP@/$name lacks: $line"; fail=1; }
  done <"$want"
done
exit $fail
