#!/usr/bin/env bash
# run-repro.sh DIR TMP: every input of DIR (the inputs that once crashed,
# hung, overflowed the heap or gave a wrong answer; each file's header says
# what it showed) through the tools, printing one line per run:
#   NAME how: exit STATUS | trapped, then the first line of the output
# A program with @main runs under coro-run at -O0 and -O2 and in the
# checked mode (N03 and N05, which misuse a coroutine, in the checked mode
# only); one without is lowered by coro-opt --coro-lower; R08's conversion
# output is loaded again.
set -uo pipefail
dir=$1 tmp=$2
run() { # NAME HOW CMD...
  local name=$1 how=$2
  shift 2
  "$@" >"$tmp.out" 2>&1
  local rc=$?
  local what="exit $rc"
  [ $rc -gt 128 ] && what=trapped
  echo "$name $how: $what | $(head -1 "$tmp.out" | sed "s|$dir/||g")" |
    sed 's/ *$//'
}
for f in "$dir"/*.mlir; do
  name=$(basename "$f" .mlir)
  name=${name%%-*}
  if [ "$name" = N03 ] || [ "$name" = N05 ]; then
    # misuse at run time: undefined, but for the checked mode
    run "$name" checked coro-run --route=llvm --checked "$f"
    run "$name" checked-O2 coro-run --route=llvm --checked -O2 "$f"
  elif grep -q 'func.func @main' "$f"; then
    run "$name" O0 coro-run --route=llvm "$f"
    run "$name" O2 coro-run --route=llvm -O2 "$f"
    run "$name" checked coro-run --route=llvm --checked "$f"
  else
    run "$name" lower coro-opt --coro-lower "$f" -o "$tmp.lowered.mlir"
  fi
done
coro-opt --convert-coro-to-llvm-switch "$dir/R08-roundtrip-conversion-output.mlir" -o "$tmp.r08.mlir"
run R08 reload coro-opt "$tmp.r08.mlir" -o /dev/null
