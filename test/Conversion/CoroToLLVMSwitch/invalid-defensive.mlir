// RUN: not coro-opt %s --split-input-file --convert-coro-to-llvm-switch 2>&1 | FileCheck %s

// Input the verifier (coro-verify, run when coro-opt loads a file) is meant
// to reject; the conversion checks it again so that it never lowers it into
// wrong code. Either may report it: the checks ask for an error at the op.

// CHECK: invalid-defensive.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error:
func.func @two_begins() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %h2 = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// CHECK: invalid-defensive.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error:
func.func @self_outside() {
  %s = "coro.self"() : () -> !coro.handle<none>
  return
}

// -----

// CHECK: invalid-defensive.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error:
func.func @promise_type() -> i64 {
  %n = "coro.noop"() : () -> !coro.handle<none>
  %v = "coro.promise"(%n) : (!coro.handle<none>) -> i64
  return %v : i64
}

// -----

// CHECK: invalid-defensive.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error:
func.func @await_type(%c: !coro.handle<i32>) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %r = "coro.await"(%c) : (!coro.handle<i32>) -> i64
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// CHECK: invalid-defensive.mlir:[[# @LINE + 4]]:{{[0-9]+}}: error:
func.func @yield_type() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 1.0 : f32
  "coro.yield"(%c) : (f32) -> i1
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}
