// RUN: coro-opt %s --convert-coro-to-llvm-async | FileCheck %s

// Two async coroutines: @task takes an index and publishes once; @outer
// awaits a @task, suspends once more and ends with the awaited value.

// CHECK-DAG: llvm.func @llvm.coro.end.async(!llvm.ptr, i1, ...)
// CHECK-DAG: llvm.func @llvm.coro.suspend.async.sl_p0s(i32, !llvm.ptr, !llvm.ptr, ...) -> !llvm.struct<(ptr)>
// CHECK-DAG: llvm.func @coro_rt_task_alloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @coro_rt_task_free(!llvm.ptr)

// The body takes the context (the handle) only, in swifttailcc; its
// arguments are read from the context.
// CHECK-LABEL: func.func private @task.coro.async
// CHECK-SAME: (%[[CTX:.*]]: !llvm.ptr)
// CHECK-SAME: CConv = #llvm.cconv<swifttailcc>
// CHECK-SAME: passthrough = ["presplitcoroutine", "noinline"]
// CHECK: %[[AP:.*]] = llvm.getelementptr %[[CTX]][0, 3, 0] {{.*}} !llvm.struct<(ptr, ptr, struct<(ptr, i64)>, struct<(i64)>)>
// CHECK: %[[A:.*]] = llvm.load %[[AP]] {{.*}} -> i64
// CHECK: arith.index_cast %[[A]] : i64 to index
// coro.id.async: the header's size bound, alignment 16, context argument
// 0, the async function pointer record.
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(48 : i32) : i32
// CHECK: %[[ALIGN:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[IDX:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[REC:.*]] = llvm.mlir.addressof @task.coro.fp
// CHECK: %[[ID:.*]] = llvm.call_intrinsic "llvm.coro.id.async"(%[[SIZE]], %[[ALIGN]], %[[IDX]], %[[REC]])
// CHECK: %[[HDL:.*]] = llvm.intr.coro.begin %[[ID]]
// coro.yield publishes into the promise at 16 from the handle (by byte
// offset, whatever the promise's alignment), then parks: the dispatch
// records where to continue.
// CHECK: %[[PROM:.*]] = llvm.getelementptr %[[CTX]][16] {{.*}} -> !llvm.ptr, i8
// CHECK: %[[PV:.*]] = llvm.getelementptr %[[PROM]][0, 1] {{.*}} -> !llvm.ptr, !llvm.struct<(ptr, i64)>
// CHECK: llvm.store %{{.*}}, %[[PV]]
// CHECK: %[[RF:.*]] = llvm.call_intrinsic "llvm.coro.async.resume"() : () -> !llvm.ptr
// CHECK: %[[PROJ:.*]] = llvm.mlir.addressof @__coro_async_project
// CHECK: %[[PARK:.*]] = llvm.mlir.addressof @__coro_async_park
// CHECK: llvm.call @llvm.coro.suspend.async.sl_p0s(%{{.*}}, %[[RF]], %[[PROJ]], %[[PARK]], %[[CTX]], %[[RF]]) vararg(!llvm.func<struct<(ptr)> (i32, ptr, ptr, ...)>)
// Resumed by coro.destroy, the destroying flag is set.
// CHECK: %[[DP:.*]] = llvm.getelementptr %[[CTX]][-16]
// CHECK: %[[D:.*]] = llvm.load %[[DP]] {{.*}} -> i64
// CHECK: llvm.icmp "ne" %[[D]]
// The end: coro.end.async with the finish dispatch as its tail call.
// CHECK: %[[FIN:.*]] = llvm.mlir.addressof @__coro_async_finish
// CHECK: llvm.call @llvm.coro.end.async(%[[HDL]], %{{.*}}, %[[FIN]], %[[CTX]]) vararg(!llvm.func<void (ptr, i1, ...)>)
// CHECK-NEXT: return
func.func @task(%n: index) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.index_cast %n : index to i64
  %d = "coro.yield"(%c) : (i64) -> i1
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Awaiting a handle that comes from an async coroutine: unless it has
// ended, suspend with __coro_async_await, which links this coroutine to it
// and tail-calls it (or, for a task the runtime knows, asks it). Having
// seen it end, a task the runtime knows (state word at -80 not 0) is
// acquired from the runtime before its result is read.
// CHECK-LABEL: func.func private @outer.coro.async
// CHECK-SAME: (%[[OCTX:.*]]: !llvm.ptr)
// CHECK: %[[T:.*]] = call @task(%{{.*}}) : (index) -> !llvm.ptr
// CHECK: %[[DONE:.*]] = llvm.call_intrinsic "llvm.coro.done"(%[[T]])
// CHECK: llvm.cond_br %[[DONE]], ^[[SEEN:.*]], ^[[SUSP:[^ ]*]]
// CHECK: ^[[SEEN]]:
// CHECK-NEXT: %[[SP:.*]] = llvm.getelementptr %[[T]][-80]
// CHECK-NEXT: %[[S:.*]] = llvm.load %[[SP]]
// CHECK: llvm.cond_br %{{.*}}, ^[[ACQ:.*]], ^[[GO:[^ ]*]]
// CHECK: ^[[ACQ]]:
// CHECK-NEXT: llvm.call @coro_rt_task_acquire(%[[T]])
// CHECK: ^[[GO]]:
// CHECK-NEXT: llvm.br ^[[NEXT:[^ ]*]]
// CHECK: ^[[SUSP]]:
// CHECK: %[[ORF:.*]] = llvm.call_intrinsic "llvm.coro.async.resume"
// CHECK: %[[AWAIT:.*]] = llvm.mlir.addressof @__coro_async_await :
// CHECK: llvm.call @llvm.coro.suspend.async.sl_p0s(%{{.*}}, %[[ORF]], %{{.*}}, %[[AWAIT]], %[[OCTX]], %[[T]], %[[ORF]])
// CHECK: ^[[NEXT]]:
// CHECK: %[[P:.*]] = llvm.intr.coro.promise %[[T]]
// CHECK: llvm.getelementptr %[[P]][0, 1]
func.func @outer() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c4 = arith.constant 4 : index
  %t = func.call @task(%c4) : (index) -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  "coro.yield"() : () -> i1
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Awaiting a handle of unknown origin goes through its resume entry.
// CHECK-LABEL: func.func private @any.coro.async
// CHECK: llvm.mlir.addressof @__coro_async_await_any
func.func @any(%x: !coro.handle<none>) -> !coro.handle<none> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.await"(%x) : (!coro.handle<none>) -> ()
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// The shared dispatch functions, tail-called by the splits.
// CHECK-DAG: llvm.func internal swifttailcc @__coro_async_park(
// CHECK-DAG: llvm.func internal swifttailcc @__coro_async_await(
// CHECK-DAG: llvm.func internal swifttailcc @__coro_async_finish(

// The record: <{0, header size}>, a global (CoroSplit writes the full size).
// CHECK-LABEL: llvm.mlir.global internal @task.coro.fp()
// CHECK: llvm.mlir.constant(48 : i32)

// The destroy entry (fastcc, the handle's) frees through the runtime.
// CHECK-LABEL: llvm.func internal fastcc @task.coro.destroy
// CHECK: llvm.call swifttailcc
// CHECK: llvm.call @coro_rt_task_free(%{{.*}})

// The resume entry (fastcc, the handle's, one per coroutine) calls the
// parked continuation, the call marked for route B to make it direct. A
// task it resumes is not being destroyed (its destroying word, at -16, is
// 0), which it tells LLVM: the body's check after the suspension folds.
// CHECK-LABEL: llvm.func internal fastcc @task.coro.resume
// CHECK: %[[DP:.*]] = llvm.getelementptr %arg0[-16]
// CHECK-NEXT: %[[D:.*]] = llvm.load %[[DP]] : !llvm.ptr -> i64
// CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: %[[LIVE:.*]] = llvm.icmp "eq" %[[D]], %[[Z]] : i64
// CHECK-NEXT: llvm.intr.assume %[[LIVE]] : i1
// CHECK: llvm.call swifttailcc %{{.*}}(%{{.*}}) {coro.continuation_of = @task.coro.async}

// The entry keeps the coroutine's name: it reads the context size from the
// record (volatile: CoroSplit enlarges it), allocates, stores the header
// and the arguments, and calls the body in swifttailcc.
// CHECK-LABEL: func.func @task(%{{.*}}: index) -> !llvm.ptr
// CHECK: llvm.load volatile
// CHECK: %[[H:.*]] = llvm.call @coro_rt_task_alloc
// CHECK: llvm.mlir.addressof @task.coro.resume
// CHECK: llvm.mlir.addressof @task.coro.destroy
// CHECK: arith.index_cast %{{.*}} : index to i64
// CHECK: %[[FN:.*]] = constant @task.coro.async
// CHECK: %[[FNP:.*]] = builtin.unrealized_conversion_cast %[[FN]]
// CHECK: llvm.call swifttailcc %[[FNP]](%[[H]])
// CHECK: return %[[H]] : !llvm.ptr
