// RUN: not coro-opt %s 2>&1 | FileCheck %s

// docs/dialect.md, "Verifier rules": coro.noop's result type is checked by
// the IRDL definition itself (the parametric constraint handle<none>).

func.func @noop_type() {
  // CHECK: docs-noop-invalid.mlir:[[# @LINE + 1]]:8: error: expected 'none' but got 'i32'
  %n = "coro.noop"() : () -> !coro.handle<i32>
  return
}
