// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// Awaiting a coroutine that already finished does not suspend: @outer runs
// to its end inside its ramp (were it to suspend, it would hand control to
// a finished coroutine and never be done). main sees it done with the
// child's result plus one: 1000 * 1 + 41 + 1.
// CHECK: 1042
func.func @child() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 41 : i32
  "coro.end"(%h, %c) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @outer(%c: !coro.handle<i32>) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %r = "coro.await"(%c) : (!coro.handle<i32>) -> i32
  %one = arith.constant 1 : i32
  %s = arith.addi %r, %one : i32
  "coro.end"(%h, %s) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @main() -> i32 {
  %c = call @child() : () -> !coro.handle<i32>
  %o = call @outer(%c) : (!coro.handle<i32>) -> !coro.handle<i32>
  %done = "coro.done"(%o) : (!coro.handle<i32>) -> i1
  %v = "coro.promise"(%o) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%o) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%c) : (!coro.handle<i32>) -> ()
  %d = arith.extui %done : i1 to i32
  %k = arith.constant 1000 : i32
  %dk = arith.muli %d, %k : i32
  %r = arith.addi %dk, %v : i32
  return %r : i32
}
