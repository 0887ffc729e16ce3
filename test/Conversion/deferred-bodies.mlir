// RUN: %python %S/Inputs/bodies-gen.py 90 > %t.mlir
// RUN: coro-opt %t.mlir --coro-lower > %t.threads.mlir
// RUN: coro-opt %t.mlir --coro-lower --mlir-disable-threading > %t.one.mlir
// RUN: diff %t.threads.mlir %t.one.mlir
// RUN: FileCheck %s < %t.threads.mlir
// REQUIRES: threads

// The retcon and async conversions make the functions of each coroutine
// (settle, resume and destroy entries, the entry, the elided entry and its
// cleanup, the frame allocator) in the module as they lower it, and their
// bodies once every coroutine is lowered, at once on MLIR's threads
// (coro_defer_body, conversion/common/abi.h): 90 coroutines of three ABIs
// and three value types make some 500 bodies, in pieces of 32. The output
// is the same with one thread, and each body is its own coroutine's: c45
// (retcon, i64), c46 (retcon.once, i64), c47 (async, i64) and c48 (retcon,
// f64), neighbours that differ (each conversion's functions follow those
// of the one before).

// CHECK-LABEL: llvm.func internal @c45.coro.alloc(
// CHECK: llvm.call @aligned_alloc
// CHECK-LABEL: llvm.func internal @c45.coro.settle(
// CHECK-SAME: !llvm.struct<(ptr, i64, ptr)>
// CHECK: llvm.extractvalue %arg1[0] : !llvm.struct<(ptr, i64, ptr)>
// CHECK: llvm.store %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-LABEL: llvm.func internal fastcc @c45.coro.resume(
// CHECK: llvm.call %{{.*}} {coro.continuation_of = @c45.coro.ramp} : !llvm.ptr, (!llvm.ptr, i1) -> !llvm.struct<(ptr, i64, ptr)>
// CHECK: llvm.call @c45.coro.settle(
// CHECK-LABEL: llvm.func internal fastcc @c45.coro.destroy(
// CHECK: {coro.continuation_of = @c45.coro.ramp}
// CHECK: llvm.call @free(%arg0)
// CHECK-LABEL: llvm.func @c45(%arg0: i64) -> !llvm.ptr {
// CHECK: llvm.call @malloc(
// CHECK: llvm.mlir.addressof @c45.coro.resume
// CHECK: llvm.mlir.addressof @c45.coro.destroy
// CHECK: llvm.call @c45.coro.ramp(%{{.*}}, %arg0) : (!llvm.ptr, i64) -> !llvm.struct<(ptr, i64, ptr)>
// CHECK: llvm.return
// CHECK-LABEL: llvm.func internal fastcc @c45.coro.cleanup(
// CHECK-NOT: @free
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @c45.elided(%arg0: !llvm.ptr, %arg1: i64)
// CHECK: llvm.mlir.addressof @c45.coro.cleanup
// CHECK: llvm.call @c45.coro.ramp(%{{.*}}, %arg1)
// CHECK: llvm.return %arg0

// CHECK-LABEL: llvm.func internal @c48.coro.settle(
// CHECK: llvm.extractvalue %arg1[1] : !llvm.struct<(ptr, f64, ptr)>
// CHECK: llvm.store %{{.*}} {alignment = 8 : i64} : f64, !llvm.ptr
// CHECK-LABEL: llvm.func @c48(%arg0: f64) -> !llvm.ptr {
// CHECK: llvm.call @c48.coro.ramp(%{{.*}}, %arg0) : (!llvm.ptr, f64) -> !llvm.struct<(ptr, f64, ptr)>

// retcon.once: its continuation returns the value alone.
// CHECK-LABEL: llvm.func @c46.coro.proto(!llvm.ptr, i1) -> i64
// CHECK-LABEL: llvm.func internal fastcc @c46.coro.resume(
// CHECK: {coro.continuation_of = @c46.coro.ramp} : !llvm.ptr, (!llvm.ptr, i1) -> i64
// CHECK: llvm.call @c46.coro.settle(
// CHECK-LABEL: llvm.func @c46(%arg0: i64)

// CHECK-LABEL: llvm.func internal fastcc @c47.coro.destroy(
// CHECK: llvm.call @coro_rt_task_free(%arg0)
// CHECK-LABEL: llvm.func internal fastcc @c47.coro.resume(
// CHECK: {coro.continuation_of = @c47.coro.async}
// CHECK-LABEL: llvm.func @c47(%arg0: i64) -> !llvm.ptr {
// CHECK: llvm.mlir.addressof @c47.coro.fp
// CHECK: llvm.mlir.addressof @c47.coro.resume
// CHECK: llvm.mlir.addressof @c47.coro.destroy
// CHECK: llvm.store %arg0, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK: llvm.mlir.addressof @c47.coro.async
