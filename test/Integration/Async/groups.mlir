// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s

// Task groups and errors. @leaf(i) parks, then fails (cf.assert) when i is a
// multiple of 7, else ends with 2i. @parent makes leaf(5), leaf(6) and
// leaf(7), adds them to a group, submits them to the pool and waits for the
// group (coro.group_await: it suspends; one failed), then reads the two
// results (10 + 12) and which failed (coro.failed: leaf(7) yes: 100,
// leaf(5) no): 22, 1, 100 read as 22001100. main waits for @parent, then
// for a group of leaf(14) and leaf(3) itself: coro.group_await outside a
// coroutine blocks the thread, and says one failed.
// CHECK: {{^}}22001100{{$}}
// CHECK-NEXT: {{^}}1{{$}}
func.func private @coro_rt_pool_create(i64) -> !llvm.ptr
func.func private @coro_rt_pool_destroy(!llvm.ptr)
func.func private @coro_rt_task_submit(!llvm.ptr, !coro.handle<i64>) -> i32
func.func private @coro_rt_task_wait(!coro.handle<i64>) -> i32

func.func @leaf(%i: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c7 = arith.constant 7 : i64
  %c0 = arith.constant 0 : i64
  %r = arith.remsi %i, %c7 : i64
  %ok = arith.cmpi ne, %r, %c0 : i64
  cf.assert %ok, "a multiple of 7"
  %c2 = arith.constant 2 : i64
  %v = arith.muli %i, %c2 : i64
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @parent(%pool: !llvm.ptr) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %g = "coro.group_create"() : () -> !llvm.ptr
  %c5 = arith.constant 5 : i64
  %c6 = arith.constant 6 : i64
  %c7 = arith.constant 7 : i64
  %a = func.call @leaf(%c5) : (i64) -> !coro.handle<i64>
  %b = func.call @leaf(%c6) : (i64) -> !coro.handle<i64>
  %c = func.call @leaf(%c7) : (i64) -> !coro.handle<i64>
  "coro.group_add"(%a, %g) : (!coro.handle<i64>, !llvm.ptr) -> ()
  "coro.group_add"(%b, %g) : (!coro.handle<i64>, !llvm.ptr) -> ()
  "coro.group_add"(%c, %g) : (!coro.handle<i64>, !llvm.ptr) -> ()
  %r1 = func.call @coro_rt_task_submit(%pool, %a) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %r2 = func.call @coro_rt_task_submit(%pool, %b) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %r3 = func.call @coro_rt_task_submit(%pool, %c) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %failed = "coro.group_await"(%g) : (!llvm.ptr) -> i64
  "coro.group_destroy"(%g) : (!llvm.ptr) -> ()
  %va = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  %vb = "coro.promise"(%b) : (!coro.handle<i64>) -> i64
  %fc = "coro.failed"(%c) : (!coro.handle<i64>) -> i1
  %fa = "coro.failed"(%a) : (!coro.handle<i64>) -> i1
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%c) : (!coro.handle<i64>) -> ()
  %s = arith.addi %va, %vb : i64
  %k = arith.constant 1000 : i64
  %s1 = arith.muli %s, %k : i64
  %s2 = arith.addi %s1, %failed : i64
  %fci = arith.extui %fc : i1 to i64
  %fai = arith.extui %fa : i1 to i64
  %c100 = arith.constant 100 : i64
  %c10 = arith.constant 10 : i64
  %x1 = arith.muli %fci, %c100 : i64
  %x2 = arith.muli %fai, %c10 : i64
  %s3 = arith.muli %s2, %k : i64
  %s4 = arith.addi %s3, %x1 : i64
  %s5 = arith.addi %s4, %x2 : i64
  "coro.end"(%h, %s5) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i64) {
  %c2 = arith.constant 2 : i64
  %pool = call @coro_rt_pool_create(%c2) : (i64) -> !llvm.ptr
  %t = call @parent(%pool) : (!llvm.ptr) -> !coro.handle<i64>
  %w = call @coro_rt_task_submit(%pool, %t) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %ww = call @coro_rt_task_wait(%t) : (!coro.handle<i64>) -> i32
  %v = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  // the host waits for a group, blocking
  %g = "coro.group_create"() : () -> !llvm.ptr
  %c14 = arith.constant 14 : i64
  %c3 = arith.constant 3 : i64
  %x = call @leaf(%c14) : (i64) -> !coro.handle<i64>
  %y = call @leaf(%c3) : (i64) -> !coro.handle<i64>
  "coro.group_add"(%x, %g) : (!coro.handle<i64>, !llvm.ptr) -> ()
  "coro.group_add"(%y, %g) : (!coro.handle<i64>, !llvm.ptr) -> ()
  %q1 = call @coro_rt_task_submit(%pool, %x) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %q2 = call @coro_rt_task_submit(%pool, %y) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %hf = "coro.group_await"(%g) : (!llvm.ptr) -> i64
  "coro.group_destroy"(%g) : (!llvm.ptr) -> ()
  "coro.destroy"(%x) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%y) : (!coro.handle<i64>) -> ()
  call @coro_rt_pool_destroy(%pool) : (!llvm.ptr) -> ()
  return %v, %hf : i64, i64
}
