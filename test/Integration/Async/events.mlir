// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s

// Tasks suspended on an event and resumed by coro's executor. Each @waiter
// registers itself with coro_rt_event_wait and yields (parks) until the
// event is set; nothing runs until main signals the event, which queues
// the waiters, and runs the executor. @outer awaits a waiter: the await
// resumes it (as every coro.await does), it finds the event unset and
// parks again; when the executor resumes it and it ends, control passes on
// to @outer by a tail call.
// Before the signal: nothing queued, nothing done. After it: the three
// waiters queued, three resumed by the executor, all done; the waiters
// logged 10, 20 and 30 and @outer ended with 30 + 1.
// CHECK: {{^}}0{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}3{{$}}
// CHECK-NEXT: {{^}}3{{$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^}}60{{$}}
// CHECK-NEXT: {{^}}31{{$}}
func.func private @coro_rt_executor_create() -> !llvm.ptr
func.func private @coro_rt_executor_destroy(!llvm.ptr)
func.func private @coro_rt_run(!llvm.ptr) -> i64
func.func private @coro_rt_pending(!llvm.ptr) -> i64
func.func private @coro_rt_event_create(!llvm.ptr) -> !llvm.ptr
func.func private @coro_rt_event_destroy(!llvm.ptr)
func.func private @coro_rt_event_wait(!llvm.ptr, !coro.handle<i64>) -> i32
func.func private @coro_rt_event_signal(!llvm.ptr)
func.func private @coro_rt_event_is_set(!llvm.ptr) -> i32

func.func @waiter(%ev: !llvm.ptr, %log: memref<3xi64>, %i: index, %v: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %self = "coro.self"() : () -> !coro.handle<i64>
  %ok = func.call @coro_rt_event_wait(%ev, %self) : (!llvm.ptr, !coro.handle<i64>) -> i32
  cf.br ^wait
^wait:
  %d = "coro.yield"() : () -> i1
  cf.cond_br %d, ^end, ^check
^check:
  // Resumed early (an awaiter resumes what it awaits): wait on.
  %set = func.call @coro_rt_event_is_set(%ev) : (!llvm.ptr) -> i32
  %c0 = arith.constant 0 : i32
  %unset = arith.cmpi eq, %set, %c0 : i32
  cf.cond_br %unset, ^wait, ^go
^go:
  memref.store %v, %log[%i] : memref<3xi64>
  cf.br ^end
^end:
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @outer(%ev: !llvm.ptr, %log: memref<3xi64>) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c2 = arith.constant 2 : index
  %c30 = arith.constant 30 : i64
  %w = func.call @waiter(%ev, %log, %c2, %c30) : (!llvm.ptr, memref<3xi64>, index, i64) -> !coro.handle<i64>
  %v = "coro.await"(%w) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%w) : (!coro.handle<i64>) -> ()
  %c1 = arith.constant 1 : i64
  %r = arith.addi %v, %c1 : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i1, i64, i64, i1, i64, i64) {
  %log = memref.alloca() : memref<3xi64>
  %ex = call @coro_rt_executor_create() : () -> !llvm.ptr
  %ev = call @coro_rt_event_create(%ex) : (!llvm.ptr) -> !llvm.ptr
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : i64
  %c20 = arith.constant 20 : i64
  %a = call @waiter(%ev, %log, %c0, %c10) : (!llvm.ptr, memref<3xi64>, index, i64) -> !coro.handle<i64>
  %b = call @waiter(%ev, %log, %c1, %c20) : (!llvm.ptr, memref<3xi64>, index, i64) -> !coro.handle<i64>
  %o = call @outer(%ev, %log) : (!llvm.ptr, memref<3xi64>) -> !coro.handle<i64>
  %pending0 = call @coro_rt_pending(%ex) : (!llvm.ptr) -> i64
  %done0 = "coro.done"(%o) : (!coro.handle<i64>) -> i1
  call @coro_rt_event_signal(%ev) : (!llvm.ptr) -> ()
  %pending1 = call @coro_rt_pending(%ex) : (!llvm.ptr) -> i64
  %ran = call @coro_rt_run(%ex) : (!llvm.ptr) -> i64
  %da = "coro.done"(%a) : (!coro.handle<i64>) -> i1
  %db = "coro.done"(%b) : (!coro.handle<i64>) -> i1
  %do = "coro.done"(%o) : (!coro.handle<i64>) -> i1
  %dab = arith.andi %da, %db : i1
  %all = arith.andi %dab, %do : i1
  %l0 = memref.load %log[%c0] : memref<3xi64>
  %l1 = memref.load %log[%c1] : memref<3xi64>
  %l2 = memref.load %log[%c2] : memref<3xi64>
  %s01 = arith.addi %l0, %l1 : i64
  %sum = arith.addi %s01, %l2 : i64
  %r = "coro.promise"(%o) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%o) : (!coro.handle<i64>) -> ()
  call @coro_rt_event_destroy(%ev) : (!llvm.ptr) -> ()
  call @coro_rt_executor_destroy(%ex) : (!llvm.ptr) -> ()
  return %pending0, %done0, %pending1, %ran, %all, %sum, %r : i64, i1, i64, i64, i1, i64, i64
}
