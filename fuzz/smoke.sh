#!/usr/bin/env bash
# One short libFuzzer run: smoke.sh FUZZER CORPUS SECONDS. Starts from the seed corpus CORPUS
# (read only: new inputs and any crash reproducer go to a temporary folder) and fails when the
# fuzzer reports a crash, leak, timeout or broken contract (fuzz/fuzz_contract.hpp); the
# reproducer is then printed as hex.
set -u
fuzzer=$1
corpus=$2
seconds=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/new"
"$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$tmp/" "$tmp/new" "$corpus" >"$tmp/log" 2>&1
status=$?
grep -E '^(stat::number_of_executed_units|#[0-9]+ +DONE)' "$tmp/log"
if [ "$status" != 0 ]; then
  tail -n 60 "$tmp/log"
  for f in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* "$tmp"/oom-*; do
    [ -e "$f" ] && { echo "reproducer $(basename "$f"):"; od -A d -c "$f" | head -n 40; }
  done
  exit 1
fi
