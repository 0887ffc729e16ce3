// The coro dialect is defined in IRDL: its ops have only the generic form.
// MLIR's parser rejects the custom form without a word; every tool reports
// it, located at the op, and exits with 1.
// RUN: not coro-opt %s 2>&1 | FileCheck %s
// RUN: not coro-run --route=llvm %s 2>&1 | FileCheck %s
// RUN: not coro-translate --route=llvm --emit=llvm %s 2>&1 | FileCheck %s
// CHECK: custom-form.mlir:15:8: error: custom assembly form of 'coro.yield' is not supported: coro ops are written in the generic form, "coro.yield"(operands) : (types) -> results
// CHECK-NEXT: {{^}}  %d = coro.yield %i : i64 -> i1
// CHECK-NEXT: {{^}}       ^

// An op first on its line (no results) is found too; the coro.abi attribute
// name before it is not taken for an op, nor is a coro.* word in a string.
func.func @f(%i: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", note = "coro.yield"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = coro.yield %i : i64 -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// RUN: not coro-opt %S/Inputs/custom-form-first.mlir 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: custom-form-first.mlir:2:3: error: custom assembly form of 'coro.end' is not supported
