// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s

// Awaiters that cannot see that the task they await is scheduled (an async
// coroutine, a switch one and a retcon one, each given the task as an
// argument) racing the task's end on a pool worker: 10,000 rounds, each
// submitting three tasks of 0 to 2,047 additions (the end comes before,
// during or after the awaiter publishes itself and calls the task's resume
// entry) and making one awaiter for each at once. An awaiter publishes
// itself as the task's continuation with a compare-and-swap; the end swaps
// in "ended" and hands an awaiter it finds there to the awaiter's own call
// of the resume entry, which clears the entry only then: the call never
// finds it null (it did: a jump to address 0), and no awaiter is lost (a
// hang) or resumed twice. main prints the rounds where every awaiter ended
// with its task's result + 1, + 2 and + 3, and the sum of their results.
// CHECK: {{^}}10000{{$}}
// CHECK-NEXT: {{^}}20932917384{{$}}
func.func private @coro_rt_pool_create(i64) -> !llvm.ptr
func.func private @coro_rt_pool_destroy(!llvm.ptr)
func.func private @coro_rt_pool_wait(!llvm.ptr) -> i64
func.func private @coro_rt_task_submit(!llvm.ptr, !coro.handle<i64>) -> i32

func.func @work(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %n1 = arith.addi %n, %c1 : i64
  %s = scf.for %i = %c1 to %n1 step %c1 iter_args(%acc = %c0) -> (i64) : i64 {
    %a = arith.addi %acc, %i : i64
    scf.yield %a : i64
  }
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @any_waiter(%t: !coro.handle<i64>) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  %c1 = arith.constant 1 : i64
  %r = arith.addi %v, %c1 : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @switch_waiter(%t: !coro.handle<i64>) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  %c2 = arith.constant 2 : i64
  %r = arith.addi %v, %c2 : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @retcon_waiter(%t: !coro.handle<i64>) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  %c3 = arith.constant 3 : i64
  %r = arith.addi %v, %c3 : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Whether the awaiter `w` of `t` ended with t's result + k; destroys both.
func.func @check(%w: !coro.handle<i64>, %t: !coro.handle<i64>, %k: i64) -> (i1, i64) {
  %dw = "coro.done"(%w) : (!coro.handle<i64>) -> i1
  %dt = "coro.done"(%t) : (!coro.handle<i64>) -> i1
  %vw = "coro.promise"(%w) : (!coro.handle<i64>) -> i64
  %vt = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%w) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  %want = arith.addi %vt, %k : i64
  %same = arith.cmpi eq, %vw, %want : i64
  %d = arith.andi %dw, %dt : i1
  %ok = arith.andi %d, %same : i1
  return %ok, %vw : i1, i64
}

func.func @round(%pool: !llvm.ptr, %n: i64) -> (i1, i64) {
  %t1 = call @work(%n) : (i64) -> !coro.handle<i64>
  %r1 = call @coro_rt_task_submit(%pool, %t1) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %a = call @any_waiter(%t1) : (!coro.handle<i64>) -> !coro.handle<i64>
  %t2 = call @work(%n) : (i64) -> !coro.handle<i64>
  %r2 = call @coro_rt_task_submit(%pool, %t2) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %s = call @switch_waiter(%t2) : (!coro.handle<i64>) -> !coro.handle<i64>
  %t3 = call @work(%n) : (i64) -> !coro.handle<i64>
  %r3 = call @coro_rt_task_submit(%pool, %t3) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %r = call @retcon_waiter(%t3) : (!coro.handle<i64>) -> !coro.handle<i64>
  %w = call @coro_rt_pool_wait(%pool) : (!llvm.ptr) -> i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %oka, %va = call @check(%a, %t1, %c1) : (!coro.handle<i64>, !coro.handle<i64>, i64) -> (i1, i64)
  %oks, %vs = call @check(%s, %t2, %c2) : (!coro.handle<i64>, !coro.handle<i64>, i64) -> (i1, i64)
  %okr, %vr = call @check(%r, %t3, %c3) : (!coro.handle<i64>, !coro.handle<i64>, i64) -> (i1, i64)
  %o1 = arith.andi %oka, %oks : i1
  %ok = arith.andi %o1, %okr : i1
  %s1 = arith.addi %va, %vs : i64
  %sum = arith.addi %s1, %vr : i64
  return %ok, %sum : i1, i64
}

func.func @main() -> (i64, i64) {
  %c2 = arith.constant 2 : i64
  %pool = call @coro_rt_pool_create(%c2) : (i64) -> !llvm.ptr
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c37 = arith.constant 37 : i64
  %c2048 = arith.constant 2048 : i64
  %rounds = arith.constant 10000 : i64
  %good, %total = scf.for %i = %c0 to %rounds step %c1 iter_args(%g = %c0, %s = %c0) -> (i64, i64) : i64 {
    %m = arith.muli %i, %c37 : i64
    %n = arith.remui %m, %c2048 : i64
    %ok, %sum = func.call @round(%pool, %n) : (!llvm.ptr, i64) -> (i1, i64)
    %oki = arith.extui %ok : i1 to i64
    %g1 = arith.addi %g, %oki : i64
    %s1 = arith.addi %s, %sum : i64
    scf.yield %g1, %s1 : i64, i64
  }
  call @coro_rt_pool_destroy(%pool) : (!llvm.ptr) -> ()
  return %good, %total : i64, i64
}
