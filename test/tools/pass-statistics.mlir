// --mlir-pass-statistics reports pass statistics after the run, on stderr
// (the counters themselves are compiled out of a release LLVM, as in
// mlir-opt); =list and =pipeline choose the layout.
// RUN: coro-opt %s --cse --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s
// RUN: coro-opt %s --cse --mlir-pass-statistics --mlir-pass-statistics-display=list 2>&1 >/dev/null | FileCheck %s
// CHECK: Pass statistics report
// RUN: coro-opt %s --cse 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE --allow-empty
// NONE-NOT: statistics
// RUN: not coro-opt %s --mlir-pass-statistics-display=tree 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: coro-opt: error: invalid value 'tree' for option '--mlir-pass-statistics-display' (want list or pipeline)

func.func @f() -> (i32, i32) {
  %a = arith.constant 1 : i32
  %b = arith.constant 1 : i32
  return %a, %b : i32, i32
}
