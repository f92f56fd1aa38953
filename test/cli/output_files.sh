#!/usr/bin/env bash
# -o never destroys an earlier good file (docs/formats.md, "Output files"):
#
#   output_files.sh BIN
#
# For each way a write can fail, an earlier output is in place and must be byte-identical
# afterwards, the run exits 1 with one line on stderr, and no temporary is left in the folder:
#   - the output path is a directory;
#   - the output file is read-only (0444; refused, also for root);
#   - a file size limit (ulimit -f) stops the write part-way: EFBIG, not a SIGXFSZ kill;
#   - the disk fills up (a 64 KiB tmpfs, where this user may mount one: root; skipped else);
#   - the run is killed by SIGKILL while it writes (caught by watching /proc/PID/fd for the
#     unnamed temporary): the earlier file is intact and no temporary is left behind, or, if
#     the kill fell between the temporary's link and the rename, the file holds the complete new
#     output or a complete `FILE.tmp.PID` is left (documented).
set -u
bin=$1
tmp=$(mktemp -d)
mnt=""
cleanup() {
  [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
  chmod -R u+w "$tmp" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# A small output (a few KB) and a large one (several MB, a second or so of work).
small=(predict --hw v100 --model nin --format csv)
large=(sweep --model nin --hw v100,a100,h100 --batch 1:4000 --format csv)

# check NAME FILE WANT_STATUS: after a failed run, the status, one stderr line, FILE equal to
# $tmp/good, and nothing but FILE in its folder (each case has a folder of its own).
check() {
  local name=$1 file=$2 want=$3
  [ "$status" = "$want" ] || bad "$name: exit status $status, expected $want"
  [ "$(wc -l <"$tmp/err")" = 1 ] || { bad "$name: stderr is not one line:"; cat "$tmp/err"; }
  cmp -s "$file" "$tmp/good" || bad "$name: the earlier file changed"
  local left
  left=$(ls -A "$(dirname "$file")" | grep -v -x -F "$(basename "$file")")
  [ -z "$left" ] || bad "$name: left behind: $left"
}

"$bin" "${small[@]}" >"$tmp/good" || bad "predict failed"

# 1. a directory
mkdir "$tmp/dir"
"$bin" "${small[@]}" -o "$tmp/dir" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 1 ] || bad "directory: exit status $status"
[ -d "$tmp/dir" ] && [ -z "$(ls -A "$tmp/dir")" ] || bad "directory: changed"
grep -q "Is a directory" "$tmp/err" || bad "directory: $(cat "$tmp/err")"

# 2. a read-only file
mkdir "$tmp/ro"
cp "$tmp/good" "$tmp/ro/ro.csv"
chmod 0444 "$tmp/ro/ro.csv"
"$bin" "${large[@]}" -o "$tmp/ro/ro.csv" >"$tmp/out" 2>"$tmp/err"
status=$?
check "read-only" "$tmp/ro/ro.csv" 1
[ "$(stat -c %a "$tmp/ro/ro.csv")" = 444 ] || bad "read-only: the mode changed"
grep -q "read-only" "$tmp/err" || bad "read-only: $(cat "$tmp/err")"

# 3. a file size limit (ulimit -f counts 1024-byte blocks in bash): 16 KiB, the output is larger
mkdir "$tmp/limit"
cp "$tmp/good" "$tmp/limit/limit.csv"
(ulimit -f 16; exec "$bin" "${large[@]}" -o "$tmp/limit/limit.csv") >"$tmp/out" 2>"$tmp/err"
status=$?
check "ulimit -f" "$tmp/limit/limit.csv" 1
grep -q "File too large" "$tmp/err" || bad "ulimit -f: $(cat "$tmp/err")"

# 4. a full disk
mkdir "$tmp/small_fs"
if mount -t tmpfs -o size=64k tmpfs "$tmp/small_fs" 2>/dev/null; then
  mnt=$tmp/small_fs
  cp "$tmp/good" "$mnt/full.csv"
  "$bin" "${large[@]}" -o "$mnt/full.csv" >"$tmp/out" 2>"$tmp/err"
  status=$?
  check "full disk" "$mnt/full.csv" 1
  grep -q "No space left on device" "$tmp/err" || bad "full disk: $(cat "$tmp/err")"
  umount "$mnt" && mnt=""
else
  echo "full disk: skipped (no tmpfs can be mounted here)"
fi

# 5. SIGKILL while writing
"$bin" "${large[@]}" >"$tmp/large.csv" || bad "sweep failed"
mkdir "$tmp/kill"
caught=0
for try in 1 2 3 4 5; do
  cp "$tmp/good" "$tmp/kill/k.csv"
  "$bin" "${large[@]}" -o "$tmp/kill/k.csv" >/dev/null 2>&1 &
  pid=$!
  # the unnamed temporary shows as "<dir>/#<inode> (deleted)" among the open files
  while kill -0 "$pid" 2>/dev/null; do
    if ls -l "/proc/$pid/fd" 2>/dev/null | grep -q -F "$tmp/kill/#"; then
      kill -9 "$pid"
      caught=$((caught + 1))
      break
    fi
  done
  wait "$pid" 2>/dev/null
  left=$(ls -A "$tmp/kill" | grep -v -x k.csv)
  if cmp -s "$tmp/kill/k.csv" "$tmp/good"; then
    [ -z "$left" ] || { for f in $left; do cmp -s "$tmp/kill/$f" "$tmp/large.csv" ||
      bad "SIGKILL: a partial $f was left"; done; }
  elif ! cmp -s "$tmp/kill/k.csv" "$tmp/large.csv"; then
    bad "SIGKILL: k.csv is neither the earlier nor the new output"
  fi
  rm -f "$tmp/kill"/*.tmp.*
done
[ "$caught" -gt 0 ] || echo "SIGKILL: the write was never caught in progress (the checks held)"
echo "SIGKILL: $caught of 5 runs killed while writing"
exit $fail
