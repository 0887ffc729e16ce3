// RUN: coro-opt %s --convert-coro-to-llvm-switch | FileCheck %s

// Consumer ops in an ordinary function; handle types become !llvm.ptr in
// signatures, calls and block arguments.

// CHECK-LABEL: func.func @consume
// CHECK-SAME: (%[[H:.*]]: !llvm.ptr) -> (i1, index)
// CHECK: llvm.intr.coro.resume %[[H]] : !llvm.ptr
// CHECK: %[[DONE:.*]] = llvm.call_intrinsic "llvm.coro.done"(%[[H]]) : (!llvm.ptr) -> i1
// CHECK: %[[ALIGN:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[FROM:.*]] = llvm.mlir.constant(false) : i1
// CHECK: %[[P:.*]] = llvm.intr.coro.promise %[[H]], %[[ALIGN]], %[[FROM]] : (!llvm.ptr, i32, i1) -> !llvm.ptr
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[P]][0, 1] {{.*}} !llvm.struct<(ptr, i64)>
// CHECK: %[[RAW:.*]] = llvm.load %[[SLOT]] {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: %[[V:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK: llvm.call_intrinsic "llvm.coro.destroy"(%[[H]]) : (!llvm.ptr) -> ()
// CHECK: return %[[DONE]], %[[V]] : i1, index
func.func @consume(%h: !coro.handle<index>) -> (i1, index) {
  "coro.resume"(%h) : (!coro.handle<index>) -> ()
  %d = "coro.done"(%h) : (!coro.handle<index>) -> i1
  %v = "coro.promise"(%h) : (!coro.handle<index>) -> index
  "coro.destroy"(%h) : (!coro.handle<index>) -> ()
  return %d, %v : i1, index
}

// CHECK-LABEL: func.func @noop
// CHECK-SAME: () -> !llvm.ptr
// CHECK: %[[N:.*]] = llvm.call_intrinsic "llvm.coro.noop"() : () -> !llvm.ptr
// CHECK: cf.br ^[[BB:.*]](%[[N]] : !llvm.ptr)
// CHECK: ^[[BB]](%[[A:.*]]: !llvm.ptr):
// CHECK: llvm.intr.coro.resume %[[A]]
// CHECK: return %[[A]] : !llvm.ptr
func.func @noop() -> !coro.handle<none> {
  %n = "coro.noop"() : () -> !coro.handle<none>
  cf.br ^bb1(%n : !coro.handle<none>)
^bb1(%a: !coro.handle<none>):
  "coro.resume"(%a) : (!coro.handle<none>) -> ()
  return %a : !coro.handle<none>
}

// A memref published through the promise travels as its descriptor.
// CHECK-LABEL: func.func @memref
// CHECK: %[[RAW:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[M:.*]] = builtin.unrealized_conversion_cast %[[RAW]] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xf32>
// CHECK: return %[[M]]
func.func @memref(%h: !coro.handle<memref<?xf32>>) -> memref<?xf32> {
  %m = "coro.promise"(%h) : (!coro.handle<memref<?xf32>>) -> memref<?xf32>
  return %m : memref<?xf32>
}
