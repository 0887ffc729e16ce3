#!/usr/bin/env bash
# abi-orders.sh FILE TMP: runs FILE (whose coroutines are written with
# coro.abi = "ABI1", "ABI2" and "ABI3") under coro-run for several orders
# of three ABIs, with route A at -O0 and route B at -O2, printing one
# result per run.
set -euo pipefail
file=$1 tmp=$2
for abis in "switch retcon async" "switch async retcon" "retcon switch async" \
  "retcon async switch" "async switch retcon" "async retcon switch" \
  "retcon.once retcon async" "switch retcon.once async"; do
  set -- $abis
  sed -e "s/ABI1/$1/" -e "s/ABI2/$2/" -e "s/ABI3/$3/" "$file" >"$tmp.mlir"
  coro-run --route=llvm "$tmp.mlir"
  coro-run -O2 --route=mlir-split "$tmp.mlir"
done
