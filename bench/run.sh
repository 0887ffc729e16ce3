#!/usr/bin/env bash
# bench/run.sh [BUILD_DIR] [N] - build and run the generator benchmark.
#
# Compiles bench/generator.mlir (under route A and, as the B rows, route
# B: --route=mlir-split), generator-retcon.mlir and
# generator-async.mlir with coro-translate --emit=obj -O2 (from BUILD_DIR,
# default build/; the async one links libCoroRuntime), the C peers
# with clang -O2 and the C++20 peer with clang++ -std=c++20 -O2, links them
# into one program and runs it: all are measured in the same process, and
# the ratios are printed. This is a benchmark, not a test.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../build}"
n="${2:-50000000}"
out="$build/bench"
mkdir -p "$out"
cc=clang-22; command -v "$cc" >/dev/null || cc=clang
cxx=clang++-22; command -v "$cxx" >/dev/null || cxx=clang++
"$build/bin/coro-translate" "$here/generator.mlir" --route=llvm --emit=obj -O2 -o "$out/generator.o"
"$build/bin/coro-translate" "$here/generator-retcon.mlir" --route=llvm --emit=obj -O2 -o "$out/generator-retcon.o"
"$build/bin/coro-translate" "$here/generator-async.mlir" --route=llvm --emit=obj -O2 -o "$out/generator-async.o"
# Route B: the same generator split by coro's --coro-split, its symbols
# renamed (@gen_* -> @gen_b_*, @coro_sum_* -> @coro_b_sum_*, @drain) so both
# routes link into one program.
sed -e 's/@gen_/@gen_b_/g' -e 's/@coro_sum_/@coro_b_sum_/g' -e 's/@drain/@drain_b/g' \
  "$here/generator.mlir" >"$out/generator-b.mlir"
"$build/bin/coro-translate" "$out/generator-b.mlir" --route=mlir-split --emit=obj -O2 -o "$out/generator-b.o"
# Route B for retcon (row "retcon B"), renamed the same way.
sed -e 's/@gen_retcon/@gen_b_retcon/g' -e 's/@coro_sum_/@coro_b_sum_/g' \
  "$here/generator-retcon.mlir" >"$out/generator-retcon-b.mlir"
"$build/bin/coro-translate" "$out/generator-retcon-b.mlir" --route=mlir-split --emit=obj -O2 -o "$out/generator-retcon-b.o"
# Route B for async (row "async B"), renamed the same way.
sed -e 's/@gen_async/@gen_b_async/g' -e 's/@coro_sum_/@coro_b_sum_/g' \
  "$here/generator-async.mlir" >"$out/generator-async-b.mlir"
"$build/bin/coro-translate" "$out/generator-async-b.mlir" --route=mlir-split --emit=obj -O2 -o "$out/generator-async-b.o"
# Route B at -O0 (rows "... B0"), against the C state machine at -O0.
sed -e 's/@gen_/@gen_b0_/g' -e 's/@coro_sum_/@coro_b0_sum_/g' -e 's/@drain/@drain_b0/g' \
  "$here/generator.mlir" >"$out/generator-b0.mlir"
"$build/bin/coro-translate" "$out/generator-b0.mlir" --route=mlir-split --emit=obj -O0 -o "$out/generator-b0.o"
"$cc" -O2 -std=c11 -DPREFIX=c_ -c "$here/state_machine.c" -o "$out/state_machine.o"
"$cc" -O0 -std=c11 -DPREFIX=c0_ -c "$here/state_machine.c" -o "$out/state_machine0.o"
"$cc" -O2 -c "$here/sink.c" -o "$out/sink.o"
"$cc" -O2 -std=c11 -c "$here/bench.c" -o "$out/bench.o"
"$cxx" -O2 -std=c++20 -c "$here/cxx_generator.cpp" -o "$out/cxx_generator.o"
"$cxx" "$out/bench.o" "$out/sink.o" "$out/state_machine.o" "$out/state_machine0.o" "$out/generator-b0.o" "$out/generator.o" "$out/generator-retcon.o" "$out/generator-retcon-b.o" "$out/generator-async.o" "$out/generator-async-b.o" "$out/generator-b.o" "$out/cxx_generator.o" -o "$out/generator-bench" \
  -L"$build/runtime" -lCoroRuntime -Wl,-rpath,"$build/runtime"
# BUILD_ONLY=1: build the program and stop (bench/instructions.sh runs it)
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
"$out/generator-bench" "$n"
