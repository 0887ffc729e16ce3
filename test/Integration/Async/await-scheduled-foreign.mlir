// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s

// Awaiters that cannot see that the task they await is scheduled: an
// async coroutine awaiting a handle that comes in as an argument (its
// origin unknown to the conversion), and a switch coroutine. Their await
// resumes the task through its resume entry, which asks the runtime
// (coro_rt_task_enter): the task is on the pool, so the awaiter waits for
// its end instead of running it a second time; the end (on a worker)
// resumes each awaiter through its resume entry. 300 rounds of: a task
// summing 1..n submitted to two workers, both awaiters made at once, the
// pool waited for; then both awaiters must have ended with the task's
// result + 1 and + 2 (whether they began to wait before or after the end).
// main prints the rounds where all was well (300) and the sum of every
// awaiter's result. Under route B at -O2 the switch awaiters' frames are
// elided into @round: the calls there lose the `tail` mark -O2's
// pre-split simplification gave them (a promise that the callee touches
// no alloca of the caller), or LLVM would keep the frames' fields loaded
// across coro_rt_pool_wait while the awaiters end on a worker.
// CHECK: {{^}}300{{$}}
// CHECK-NEXT: {{^}}9000800{{$}}
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

func.func @round(%pool: !llvm.ptr, %n: i64) -> (i1, i64) {
  %t = call @work(%n) : (i64) -> !coro.handle<i64>
  %rc = call @coro_rt_task_submit(%pool, %t) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %a = call @any_waiter(%t) : (!coro.handle<i64>) -> !coro.handle<i64>
  %s = call @switch_waiter(%t) : (!coro.handle<i64>) -> !coro.handle<i64>
  %w = call @coro_rt_pool_wait(%pool) : (!llvm.ptr) -> i64
  %da = "coro.done"(%a) : (!coro.handle<i64>) -> i1
  %ds = "coro.done"(%s) : (!coro.handle<i64>) -> i1
  %dt = "coro.done"(%t) : (!coro.handle<i64>) -> i1
  %va = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  %vs = "coro.promise"(%s) : (!coro.handle<i64>) -> i64
  %vt = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%s) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %wa = arith.addi %vt, %c1 : i64
  %ws = arith.addi %vt, %c2 : i64
  %oka = arith.cmpi eq, %va, %wa : i64
  %oks = arith.cmpi eq, %vs, %ws : i64
  %d1 = arith.andi %da, %ds : i1
  %d2 = arith.andi %d1, %dt : i1
  %o1 = arith.andi %oka, %oks : i1
  %ok = arith.andi %d2, %o1 : i1
  %sum = arith.addi %va, %vs : i64
  return %ok, %sum : i1, i64
}

func.func @main() -> (i64, i64) {
  %c2 = arith.constant 2 : i64
  %pool = call @coro_rt_pool_create(%c2) : (i64) -> !llvm.ptr
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c300 = arith.constant 300 : i64
  %good, %total = scf.for %i = %c0 to %c300 step %c1 iter_args(%g = %c0, %s = %c0) -> (i64, i64) : i64 {
    %n = arith.muli %i, %c1 : i64
    %ok, %sum = func.call @round(%pool, %i) : (!llvm.ptr, i64) -> (i1, i64)
    %oki = arith.extui %ok : i1 to i64
    %g1 = arith.addi %g, %oki : i64
    %s1 = arith.addi %s, %sum : i64
    scf.yield %g1, %s1 : i64, i64
  }
  call @coro_rt_pool_destroy(%pool) : (!llvm.ptr) -> ()
  return %good, %total : i64, i64
}
