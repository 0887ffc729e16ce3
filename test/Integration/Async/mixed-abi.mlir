// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s

// Awaits across ABIs, both ways: @s0 (switch) awaits @a1 (async), which
// awaits @s2 (switch), which awaits @a3 (async). @a3 parks at its yield;
// the await in @s2 resumes it, and each end hands control back to its
// awaiter through the promise's continuation, whatever the awaiter's ABI.
// @main sees @s0 done with 10000 + 1000 + 100 + 7.
// CHECK: {{^}}1{{$}}
// CHECK-NEXT: {{^}}11107{{$}}
func.func @a3() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"() : () -> i1
  %c = arith.constant 7 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @s2() -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %t = func.call @a3() : () -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  %c = arith.constant 100 : i64
  %r = arith.addi %v, %c : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @a1() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %t = func.call @s2() : () -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  %c = arith.constant 1000 : i64
  %r = arith.addi %v, %c : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @s0() -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %t = func.call @a1() : () -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  %c = arith.constant 10000 : i64
  %r = arith.addi %v, %c : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i1, i64) {
  %t = call @s0() : () -> !coro.handle<i64>
  %d = "coro.done"(%t) : (!coro.handle<i64>) -> i1
  %v = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  return %d, %v : i1, i64
}
