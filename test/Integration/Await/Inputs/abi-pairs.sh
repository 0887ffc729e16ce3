#!/usr/bin/env bash
# abi-pairs.sh FILE TMP [ARGS...]: runs FILE (whose coroutines @child and
# @parent are written with coro.abi = "switch") under coro-run for every
# pair of ABIs (child in switch, retcon, async, or in $CHILD_ABIS when set;
# parent in those and retcon.once), at -O0 and -O2, printing "child parent
# result" per run.
set -euo pipefail
file=$1 tmp=$2
shift 2
for c in ${CHILD_ABIS:-switch retcon async}; do
  for p in switch retcon retcon.once async; do
    out=$tmp.$c.$p.mlir
    sed -e "/@child(/s/\"switch\"/\"$c\"/" \
      -e "/@parent(/s/\"switch\"/\"$p\"/" "$file" >"$out"
    grep -q "@parent(.*\"$p\"" "$out"
    for o in -O0 -O2; do
      echo "$c $p $o $(coro-run --route=llvm "$out" $o "$@" | paste -sd " ")"
    done
  done
done
