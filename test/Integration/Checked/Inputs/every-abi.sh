#!/usr/bin/env bash
# every-abi.sh FILE TMP: runs FILE (its coroutine written with coro.abi =
# "switch") with coro-run --checked under switch, retcon and async, -O0 and
# -O2, both routes; prints "abi -On route: trapped" (killed by a signal) or
# the exit status, then what it wrote to stderr.
set -uo pipefail
file=$1 tmp=$2
for abi in switch retcon async; do
  sed "s/\"switch\"/\"$abi\"/" "$file" >"$tmp.mlir"
  for o in -O0 -O2; do
    for route in llvm mlir-split; do
      coro-run --checked "$tmp.mlir" $o --route=$route >/dev/null 2>"$tmp.err"
      rc=$?
      if [ $rc -gt 128 ]; then what=trapped; else what="exit $rc"; fi
      echo "$abi $o $route: $what $(cat "$tmp.err")"
    done
  done
done
