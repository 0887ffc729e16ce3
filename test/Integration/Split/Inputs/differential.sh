#!/usr/bin/env bash
# differential.sh BIN_DIR TMP N_SEEDS [FIRST_SEED]: the differential test of
# route A (coro-run --route=llvm) against route B (--route=mlir-split) on
# random switch-coroutine programs. For each seed FIRST_SEED..+N_SEEDS-1
# (FIRST_SEED defaults to 1) coro-progen prints a program; coro-run runs it
# under route A at -O0 (the reference) and at -O2, and under route B at -O0
# and -O2. Any other result, a non-zero exit or a timeout is a failure: one
# line per failing seed, naming each disagreeing run, and the program is
# kept as TMP/seed-N.mlir (passing ones are removed). The last line is
# `differential: P passed, F failed`; the exit status is non-zero when F > 0.
#
# Run for longer by hand: differential.sh build/bin /tmp/d 5000
#
# Environment:
#   ROUTE_B=mlir-split  the route compared with route A (llvm). ROUTE_B=llvm
#                       checks the harness and the generator without route B:
#                       route A at -O2 against route A at -O0.
#   TIMEOUT=60          seconds one coro-run may take.
#   DYNAMIC=1           programs with allocas of dynamic size (see below).
#   FLAGS="--checked"   more coro-run flags for every run, the reference
#                       too (--checked, --no-elide, -g change the path).
#   ABI=retcon          the programs' ABI (switch, retcon, async, retcon.once:
#                       programs of coro-progen --once, or mixed: each
#                       coroutine its own, so awaits cross ABIs):
#                       coro-progen writes switch coroutines, which run
#                       unchanged under the others (the coro ops mean the
#                       same in every ABI that suspends more than once).
set -uo pipefail

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: differential.sh BIN_DIR TMP N_SEEDS [FIRST_SEED]" >&2
  exit 2
fi
bin=$1 tmp=$2 n=$3 first=${4:-1}
route_b=${ROUTE_B:-mlir-split}
abi=${ABI:-switch}
limit=${TIMEOUT:-60}
mkdir -p "$tmp" || exit 2

# The runs compared with the reference (llvm at -O0), without duplicates.
runs=("llvm -O2")
for o in -O0 -O2; do
  [ "$route_b $o" = "llvm -O0" ] || [ "$route_b $o" = "llvm -O2" ] ||
    runs+=("$route_b $o")
done

# run ROUTE OPT PROGRAM OUT: coro-run's output (first line) and exit status.
run() {
  local out
  # shellcheck disable=SC2086 # FLAGS is a list of flags
  out=$(timeout "$limit" "$bin/coro-run" ${FLAGS:-} --route="$1" "$2" "$3" 2>&1)
  echo "$? ${out%%$'\n'*}" >"$4"
}

# set_abi SEED: the program (stdin) with its coroutines' ABI set; under
# mixed, coroutine @coK gets switch, retcon or async by (SEED + K) mod 3,
# so awaits (of lower-numbered coroutines) cross ABIs.
set_abi() {
  if [ "$abi" = mixed ]; then
    awk -v seed="$1" '
      BEGIN { split("switch retcon async", name, " ") }
      /^func\.func @co[0-9]+\(/ {
        k = substr($2, 4) + 0
        sub(/coro\.abi = "switch"/, "coro.abi = \"" name[(seed + k) % 3 + 1] "\"")
      }
      { print }'
  else
    sed "s/coro.abi = \"switch\"/coro.abi = \"$abi\"/"
  fi
}

# retcon.once programs suspend at most once: coro-progen --once. DYNAMIC=1:
# allocas of dynamic size (coro-progen --dynamic), which route A cannot
# split; route A runs the same program with the counts made constants
# again (the reference), route B the dynamic one.
once=
[ "$abi" = retcon.once ] && once=--once
dynamic=${DYNAMIC:-}
if [ -n "$dynamic" ] && [ -n "$once" ]; then
  # coro-progen makes either kind, not both
  echo "differential: DYNAMIC=1 does not combine with ABI=retcon.once" >&2
  exit 2
fi
[ -n "$dynamic" ] && once=--dynamic

pass=0 fail=0
for ((s = first; s < first + n; ++s)); do
  prog=$tmp/seed-$s.mlir
  if ! "$bin/coro-progen" $once "$s" | set_abi "$s" >"$prog"; then
    echo "seed $s: coro-progen failed"
    fail=$((fail + 1))
    continue
  fi
  refprog=$prog
  if [ -n "$dynamic" ]; then
    refprog=$prog.static.mlir
    sed 's|%cnt = llvm.add %zdyn, %v[0-9]* : i64 // count \([0-9]*\)|%cnt = llvm.mlir.constant(\1 : i64) : i64|' \
      "$prog" >"$refprog"
  fi
  # All runs of a seed at once (they are independent).
  run llvm -O0 "$refprog" "$prog.0" &
  for i in "${!runs[@]}"; do
    p=$prog
    [ "${runs[$i]%% *}" = llvm ] && p=$refprog
    # shellcheck disable=SC2086 # "route opt" splits into two arguments
    run ${runs[$i]} "$p" "$prog.$((i + 1))" &
  done
  wait
  ref=$(<"$prog.0")
  msg=
  [ "${ref%% *}" = 0 ] || msg=" llvm -O0: exit ${ref%% *}: ${ref#* };"
  for i in "${!runs[@]}"; do
    got=$(<"$prog.$((i + 1))")
    [ "$got" = "$ref" ] ||
      msg="$msg ${runs[$i]}: exit ${got%% *}: ${got#* } (llvm -O0: ${ref#* });"
  done
  rm -f "$prog".[0-9]
  [ -n "$msg" ] || rm -f "$prog.static.mlir"
  if [ -n "$msg" ]; then
    echo "seed $s:$msg program: $prog"
    fail=$((fail + 1))
  else
    rm -f "$prog"
    pass=$((pass + 1))
  fi
done
echo "differential: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
