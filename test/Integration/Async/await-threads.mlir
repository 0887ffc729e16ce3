// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s

// Await across threads: fib(20) as a tree of async tasks on a pool of two
// workers. Each task parks at its start; a task with n >= 2 submits its
// first child to the pool (coro_rt_task_submit), drives its second in place
// (coro.await of a task nobody scheduled runs it), then awaits the first:
// scheduled, so it is not driven again: the awaiter suspends and is
// resumed by whichever worker ends it. main submits the root and blocks
// until it ends (coro_rt_task_wait, 0).
// CHECK: {{^}}6765{{$}}
// CHECK-NEXT: {{^}}0{{$}}
func.func private @coro_rt_pool_create(i64) -> !llvm.ptr
func.func private @coro_rt_pool_destroy(!llvm.ptr)
func.func private @coro_rt_task_submit(!llvm.ptr, !coro.handle<i64>) -> i32
func.func private @coro_rt_task_wait(!coro.handle<i64>) -> i32

func.func @fib(%pool: !llvm.ptr, %n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c2 = arith.constant 2 : i64
  %small = arith.cmpi slt, %n, %c2 : i64
  cf.cond_br %small, ^done(%n : i64), ^split
^split:
  %c1 = arith.constant 1 : i64
  %n1 = arith.subi %n, %c1 : i64
  %n2 = arith.subi %n, %c2 : i64
  %a = func.call @fib(%pool, %n1) : (!llvm.ptr, i64) -> !coro.handle<i64>
  %rc = func.call @coro_rt_task_submit(%pool, %a) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %b = func.call @fib(%pool, %n2) : (!llvm.ptr, i64) -> !coro.handle<i64>
  %y = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  %x = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %s = arith.addi %x, %y : i64
  cf.br ^done(%s : i64)
^done(%r: i64):
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i32) {
  %c2 = arith.constant 2 : i64
  %pool = call @coro_rt_pool_create(%c2) : (i64) -> !llvm.ptr
  %n = arith.constant 20 : i64
  %t = call @fib(%pool, %n) : (!llvm.ptr, i64) -> !coro.handle<i64>
  %rc = call @coro_rt_task_submit(%pool, %t) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %w = call @coro_rt_task_wait(%t) : (!coro.handle<i64>) -> i32
  %v = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  call @coro_rt_pool_destroy(%pool) : (!llvm.ptr) -> ()
  return %v, %w : i64, i32
}
