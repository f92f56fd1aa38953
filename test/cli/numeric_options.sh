#!/usr/bin/env bash
# Every numeric option of every command refuses what it cannot mean (docs/cli/README.md):
#
#   numeric_options.sh BIN
#
# The options are found in each command's --help (an option whose value's type is INT, UINT or
# FLOAT, with or without a check: INT:POSITIVE, FLOAT:FLOAT in [0 - 3600]), so that an option
# added later is checked too. Each is given nan, inf, -inf, 1e400 and -1 (and 1.5 and
# 99999999999999999999 where it takes whole numbers): each must exit 2 with one line on stderr that names the option and echoes
# the value as typed. The count of options checked is printed; fewer than 20 fails (the help
# was not parsed).
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checked=0
bad() { echo "FAIL: $*" | tee -a "$tmp/failures"; } # also from the subshells of the loop

commands=$("$bin" --help | awk '/^Subcommands:/{s=1; next} s && NF {print $1}')
[ -n "$commands" ] || bad "no commands in perfmodel --help"
for cmd in $commands; do
  # CLI11's lines: "  -b,--batch INT:POSITIVE   text", "  --attempts INT:INT in [1 - 20]",
  # "  --power FLOAT:POSITIVE ...": the names, then the value's type
  "$bin" "$cmd" --help | grep -E '^\s+-' | while IFS= read -r line; do
    opt=$(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$line" | head -1)
    type=$(awk '{print $2}' <<<"$line")
    case $type in
    INT* | UINT* | FLOAT*) ;;
    *) continue ;;
    esac
    whole=0
    [[ $type == INT* || $type == UINT* ]] && whole=1
    values=(nan inf -inf 1e400 -1)
    [ $whole = 1 ] && values+=(1.5 99999999999999999999)
    for v in "${values[@]}"; do
      "$bin" "$cmd" "$opt" "$v" >"$tmp/out" 2>"$tmp/err"
      status=$?
      if [ "$status" != 2 ] || [ "$(wc -l <"$tmp/err")" != 1 ] ||
        ! grep -q -F -- "$opt" "$tmp/err" || ! grep -q -F -- "$v" "$tmp/err"; then
        bad "$cmd $opt $v: exit $status, stderr: $(cat "$tmp/err")"
      fi
    done
    echo "$cmd $opt" >>"$tmp/checked"
  done
done
checked=$(wc -l <"$tmp/checked" 2>/dev/null || echo 0)
echo "numeric options checked: $checked"
[ "$checked" -ge 20 ] || bad "only $checked numeric options found in the help texts"
[ -s "$tmp/failures" ] && fail=1
exit $fail
