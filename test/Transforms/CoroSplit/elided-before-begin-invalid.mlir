// RUN: not coro-run --route=mlir-split %s 2>&1 | FileCheck %s

// An elided call before the caller's coro.begin whose handle the caller
// still uses after a suspension: the callee's frame would have to be in
// the caller's frame, which does not exist when the callee starts on it.
// Route B refuses at the call, naming why (a copy would leave the
// callee's address behind); it never splits it into a use after return.

func.func @inner(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%n) : (i64) -> i1
  "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @outer(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  // CHECK: elided-before-begin-invalid.mlir:[[@LINE+1]]:8: error: this use of an alloca the coroutine keeps in its frame runs before llvm.coro.begin and lets its address escape
  %g = func.call @inner(%n) : (i64) -> !coro.handle<i64>
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%n) : (i64) -> i1
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %w = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  "coro.yield"(%w) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> i64 {
  %c = arith.constant 7 : i64
  %h = func.call @outer(%c) : (i64) -> !coro.handle<i64>
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  return %c : i64
}
