// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// A chain of 1,000,000 lazily started tasks, each awaiting the next, runs
// with O(1) stack: coro-run calls the entry on an 8 MiB stack, far below
// what one native frame per level would need. main reads done (1) and the
// depth through the first task's promise.
// CHECK: 1001000000
// A lazily started task: suspends at once, then (when resumed) awaits the
// next task of the chain and ends with its result plus one.
func.func @task(%depth: i64, %n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c1 = arith.constant 1 : i64
  %last = arith.cmpi eq, %depth, %n : i64
  cf.cond_br %last, ^leaf, ^inner
^leaf:
  %z = arith.constant 0 : i64
  "coro.end"(%h, %z) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^inner:
  %next = arith.addi %depth, %c1 : i64
  %child = func.call @task(%next, %n) : (i64, i64) -> !coro.handle<i64>
  %r = "coro.await"(%child) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%child) : (!coro.handle<i64>) -> ()
  %s = arith.addi %r, %c1 : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> i64 {
  %c0 = arith.constant 0 : i64
  %n = arith.constant 1000000 : i64
  %t = func.call @task(%c0, %n) : (i64, i64) -> !coro.handle<i64>
  "coro.resume"(%t) : (!coro.handle<i64>) -> ()
  %done = "coro.done"(%t) : (!coro.handle<i64>) -> i1
  %r = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  %c1000 = arith.constant 1000000000 : i64
  %di = arith.extui %done : i1 to i64
  %k = arith.muli %di, %c1000 : i64
  %out = arith.addi %r, %k : i64
  return %out : i64
}
