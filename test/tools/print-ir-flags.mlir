// mlir-opt's IR dump flags: --mlir-print-ir-after-failure dumps the IR
// after a pass that failed (only then); --mlir-print-ir-after-change, with
// --mlir-print-ir-after-all, skips passes that changed nothing;
// --mlir-print-local-scope prints attributes inline instead of aliases.
// RUN: not coro-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(cse,func.func(symbol-dce))' --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=FAILURE
// FAILURE-NOT: IR Dump After CSE
// FAILURE: IR Dump After SymbolDCE Failed (symbol-dce)
// FAILURE: func.func @f
// RUN: coro-opt %s --allow-unregistered-dialect --cse --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s --check-prefix=NOFAILURE --allow-empty
// NOFAILURE-NOT: IR Dump

// RUN: coro-opt %s --allow-unregistered-dialect --cse --canonicalize --mlir-print-ir-after-all --mlir-print-ir-after-change 2>&1 >/dev/null | FileCheck %s --check-prefix=CHANGE
// CHANGE-NOT: IR Dump After CoroVerify
// CHANGE: IR Dump After CSE (cse)
// CHANGE-NOT: IR Dump After
// RUN: coro-opt %s --allow-unregistered-dialect --cse --canonicalize --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// ALL: IR Dump After CoroVerify
// ALL: IR Dump After CSE (cse)
// ALL: IR Dump After Canonicalizer

// RUN: coro-opt %s --allow-unregistered-dialect | FileCheck %s --check-prefix=ALIAS
// ALIAS: #[[MAP:.*]] = affine_map<(d0) -> (d0 + 1)>
// ALIAS: "test.use"() {m = #[[MAP]]}
// RUN: coro-opt %s --allow-unregistered-dialect --mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL
// LOCAL-NOT: = affine_map
// LOCAL: "test.use"() {m = affine_map<(d0) -> (d0 + 1)>}

func.func @f() -> (i32, i32) {
  %a = arith.constant 1 : i32
  %b = arith.constant 1 : i32
  "test.use"() {m = affine_map<(d0) -> (d0 + 1)>} : () -> ()
  return %a, %b : i32, i32
}
