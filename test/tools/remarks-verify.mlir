// --verify-diagnostics checks remarks against their annotations, and only
// the remarks the filter selects are produced.
// RUN: coro-opt %s --test-coro-remarks --remarks-filter=coro-elide --verify-diagnostics
// RUN: not coro-opt %s --test-coro-remarks --verify-diagnostics 2>&1 | FileCheck %s
// CHECK: remarks-verify.mlir:[[# @LINE + 3]]:21: error: expected remark "'f' not elided" was not produced
// CHECK: remarks-verify.mlir:[[# @LINE + 6]]:4: error: expected remark "'g' not elided (test remark)" was not produced

func.func @f() { // expected-remark {{'f' not elided}}
  return
}

// expected-remark@below {{'g' not elided (test remark)}}
func.func @g() {
  return
}
