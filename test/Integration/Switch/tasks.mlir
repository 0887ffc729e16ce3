// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// Eager and lazy tasks. @eager runs to its end in the ramp, so awaiting it
// does not suspend; @lazy suspends first and only runs when awaited. @both
// awaits both and ends with 10 * eager + lazy. @both is itself eager: the
// lazy task's final suspension transfers back to it, so @both is done when
// its ramp returns to main.
// 1000 * done + 10 * eager + lazy  = 1000 + 10 * 4 + 5 = 1045
// CHECK: 1045
func.func @eager(%x: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.end"(%h, %x) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @lazy(%x: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.yield"() : () -> i1
  "coro.end"(%h, %x) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @both() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c10 = arith.constant 10 : i32
  %e = func.call @eager(%c4) : (i32) -> !coro.handle<i32>
  %l = func.call @lazy(%c5) : (i32) -> !coro.handle<i32>
  %a = "coro.await"(%e) : (!coro.handle<i32>) -> i32
  %b = "coro.await"(%l) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%e) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%l) : (!coro.handle<i32>) -> ()
  %a10 = arith.muli %a, %c10 : i32
  %s = arith.addi %a10, %b : i32
  "coro.end"(%h, %s) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @main() -> i32 {
  %t = call @both() : () -> !coro.handle<i32>
  %done = "coro.done"(%t) : (!coro.handle<i32>) -> i1
  %v = "coro.promise"(%t) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%t) : (!coro.handle<i32>) -> ()
  %d = arith.extui %done : i1 to i32
  %c1000 = arith.constant 1000 : i32
  %k = arith.muli %d, %c1000 : i32
  %r = arith.addi %k, %v : i32
  return %r : i32
}
