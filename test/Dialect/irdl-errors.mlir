// RUN: not coro-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefixes=CHECK,NOTE
// RUN: not coro-opt %s --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefixes=CHECK,NONOTE

// Errors of the dialect's IRDL constraints name the op, as MLIR's own
// verifiers' errors do ("'coro.yield' op ...", not "op ..."), also when
// the op note they come with is not shown
// (--mlir-print-op-on-diagnostic=false).

func.func @f() {
  // CHECK: irdl-errors.mlir:[[@LINE+3]]:3: error: 'coro.yield' op expects at least 1 results, but got 0
  // NOTE: note: see current operation: "coro.yield"() : () -> ()
  // NONOTE-NOT: see current operation
  "coro.yield"() : () -> ()
  return
}

// -----

func.func @g(%n: i64) {
  // CHECK: irdl-errors.mlir:[[@LINE+2]]:8: error: 'coro.begin' op expects exactly 0 operands, but got 1
  // NOTE: note: see current operation: %0 = "coro.begin"(%arg0) : (i64) -> i64
  %h = "coro.begin"(%n) : (i64) -> i64
  return
}
