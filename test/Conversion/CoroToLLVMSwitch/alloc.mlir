// RUN: coro-opt %s --convert-coro-to-llvm-switch | FileCheck %s

// coro.alloc_fn / coro.free_fn replace malloc and free; func.func allocators
// are called with func.call, llvm.func ones with llvm.call.

// Declarations of allocators the module lacks come first.
// CHECK-DAG: llvm.func @"free it"(!llvm.ptr)
// CHECK-DAG: llvm.func @"get 1 frame"(i64) -> !llvm.ptr
// CHECK-LABEL: func.func @custom
// CHECK: %[[SIZE:.*]] = llvm.intr.coro.size : i64
// CHECK: %{{.*}} = call @my_alloc(%[[SIZE]]) : (i64) -> !llvm.ptr
// CHECK: %[[MEM:.*]] = llvm.intr.coro.free
// CHECK: llvm.call @my_free(%[[MEM]]) : (!llvm.ptr) -> ()
// CHECK-NOT: @malloc
func.func @custom() -> !coro.handle<none> attributes {coro.abi = "switch", coro.alloc_fn = @my_alloc, coro.free_fn = @my_free} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func private @my_alloc(i64) -> !llvm.ptr
llvm.func @my_free(!llvm.ptr)

// coro.alloc = "elide" marks the ramp alwaysinline, so that LLVM inlines it
// after CoroSplit and CoroElide can put the frame in the caller.
// CHECK-LABEL: func.func @elided
// CHECK-SAME: passthrough = ["presplitcoroutine", "alwaysinline"]
// CHECK: llvm.call @malloc
func.func @elided() -> !coro.handle<none> attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// Passthrough attributes already on the coroutine are kept.
// CHECK-LABEL: func.func @kept
// CHECK-SAME: passthrough = ["nounwind", "presplitcoroutine"]
func.func @kept() -> !coro.handle<none> attributes {coro.abi = "switch", passthrough = ["nounwind"]} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// Allocator names that need quoting are fine (never printed and reparsed);
// absent ones are declared as llvm.func (checked at the top).
// CHECK-LABEL: func.func @quoted
// CHECK: llvm.call @"get 1 frame"(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK: llvm.call @"free it"(%{{.*}}) : (!llvm.ptr) -> ()
func.func @quoted() -> !coro.handle<none> attributes {coro.abi = "switch", coro.alloc_fn = @"get 1 frame", coro.free_fn = @"free it"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
