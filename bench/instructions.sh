#!/usr/bin/env bash
# bench/instructions.sh [BUILD_DIR] [N] - the generator benchmark of
# bench/run.sh counted in instructions rather than timed: the same program
# (built by run.sh with BUILD_ONLY=1) runs each consumer once over N values
# (default 1,000,000) under valgrind --tool=callgrind, and each row prints
# the instructions per value of coro's consumer (inclusive: the consumer,
# its generator's ramp, resume and destroy, bench_sink and the allocator),
# of the C state machine's and of the C++20 coroutine's, and the ratios.
# Instruction counts do not depend on the machine's load, so small
# differences between the rows are real; they are not time (a store and
# an add count the same). A benchmark, not a test.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../build}"
n="${2:-1000000}"
if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
  echo "skipped: no valgrind (apt-get install valgrind)"
  exit 0
fi
BUILD_ONLY=1 bash "$here/run.sh" "$build" "$n"
out="$build/bench"
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" \
  "$out/generator-bench" "$n" --once 2>/dev/null
callgrind_annotate --inclusive=yes --threshold=100 "$out/callgrind.out" \
  >"$out/callgrind.txt"
# row coro-function C-function C++-function, as bench.c pairs them
rows='heap coro_sum_heap c_sum_heap cxx_sum_heap
elided coro_sum_elided c_sum_elided cxx_sum_elided
retcon coro_sum_retcon c_sum_heap cxx_sum_heap
async coro_sum_async c_sum_heap cxx_sum_heap
heap_B coro_b_sum_heap c_sum_heap cxx_sum_heap
elided_B coro_b_sum_elided c_sum_elided cxx_sum_elided
retcon_B coro_b_sum_retcon c_sum_heap cxx_sum_heap
async_B coro_b_sum_async c_sum_heap cxx_sum_heap
local coro_sum_local c_sum_elided cxx_sum_elided
local_B coro_b_sum_local c_sum_elided cxx_sum_elided
helper_B coro_b_sum_helper c_sum_elided cxx_sum_elided
rc_local coro_sum_retcon_local c_sum_elided cxx_sum_elided
rc_local_B coro_b_sum_retcon_local c_sum_elided cxx_sum_elided
elided_B0 coro_b0_sum_elided c0_sum_elided cxx_sum_elided
local_B0 coro_b0_sum_local c0_sum_elided cxx_sum_elided'
echo "$rows" | awk -v n="$n" -v file="$out/callgrind.txt" '
  BEGIN {
    while ((getline line < file) > 0) {
      if (line !~ /^ *[0-9,]+ /) continue
      split(line, f, " ")
      ir = f[1]; gsub(",", "", ir)
      fn = line; sub(/.*:/, "", fn); sub(/ .*/, "", fn)
      if (!(fn in count)) count[fn] = ir
    }
    printf "generator, %d values, instructions per value (callgrind)\n", n
    printf "%-10s %10s %10s %10s %12s %12s\n", "frame", "coro", "C sm", "C++20", "coro/C", "coro/C++"
  }
  {
    row = $1; gsub("_", " ", row)
    a = count[$2] / n; b = count[$3] / n; c = count[$4] / n
    printf "%-10s %10.2f %10.2f %10.2f %12.2f %12.2f\n", row, a, b, c, b ? a / b : 0, c ? a / c : 0
  }'
