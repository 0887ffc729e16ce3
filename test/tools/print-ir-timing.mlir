// --mlir-print-ir-after-all shows the load-time coro-verify first, then the
// requested passes in order; --mlir-timing reports them.
// RUN: coro-opt %s --cse --canonicalize --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s
// CHECK: IR Dump After CoroVerify (coro-verify)
// CHECK: func.func @f
// CHECK: IR Dump After CSE (cse)
// CHECK: IR Dump After Canonicalizer (canonicalize)

// RUN: coro-opt %s --cse --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIME
// TIME: Execution time report
// TIME: CoroVerify
// TIME: CSE
// TIME: Total

func.func @f() {
  return
}
