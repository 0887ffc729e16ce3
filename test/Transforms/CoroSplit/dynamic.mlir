// RUN: coro-opt --coro-split %s | FileCheck %s

// An llvm.alloca of dynamic size live across a suspension (LLVM's CoroSplit
// aborts on it): --coro-split gives it heap memory the frame owns. The
// frame keeps the head of a list of such blocks (at 16, set to null after
// coro.begin); each run of the alloca mallocs count * size + 16 bytes, links
// the block in front and uses the memory 16 bytes on; the list is freed
// right before the frame, at llvm.coro.free, on the path every destroy
// takes.
// CHECK-LABEL: llvm.func @gen(
// CHECK: %[[FRAME:.*]] = llvm.call @malloc(
// CHECK: %[[HEAD:.*]] = llvm.getelementptr %[[FRAME]][16]
// CHECK: llvm.store %{{.*}}, %[[HEAD]]
// CHECK: %[[N:.*]] = llvm.zext %arg0 : i32 to i64
// CHECK: %[[BYTES:.*]] = llvm.mul %[[N]], %{{.*}} : i64
// CHECK: %[[TOTAL:.*]] = llvm.add %[[BYTES]], %{{.*}} : i64
// CHECK: %[[BLK:.*]] = llvm.call @malloc(%[[TOTAL]])
// CHECK: %[[OLD:.*]] = llvm.load %[[HEAD]]
// CHECK: llvm.store %[[OLD]], %[[BLK]]
// CHECK: llvm.store %[[BLK]], %[[HEAD]]
// CHECK: %[[BUF:.*]] = llvm.getelementptr %[[BLK]][16]
// CHECK: llvm.store %arg0, %[[BUF]] : i32, !llvm.ptr
// The block's address is an ordinary value kept across the suspension.
// CHECK: llvm.store %[[BUF]], %{{.*}} : !llvm.ptr, !llvm.ptr

// CHECK-LABEL: llvm.func internal @__coro_free_allocas(%arg0: !llvm.ptr) {
// CHECK: llvm.icmp "eq"
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @free(

// CHECK-LABEL: llvm.func internal fastcc @gen.destroy(
// CHECK: %[[L:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: llvm.call @__coro_free_allocas(%[[L]])
// CHECK: llvm.call @free(%arg0)
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @gen(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %buf = llvm.alloca %n x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %n, %buf : i32, !llvm.ptr
  %save = llvm.call_intrinsic "llvm.coro.save"(%hdl) : (!llvm.ptr) -> !llvm.token
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%save, %false) : (!llvm.token, i1) -> i8
  llvm.switch %s : i8, ^suspend [
    0: ^resume,
    1: ^cleanup
  ]
^resume:
  %v = llvm.load %buf : !llvm.ptr -> i32
  llvm.call @use(%v) : (i32) -> ()
  %tok = llvm.mlir.none : !llvm.token
  %fs = llvm.call_intrinsic "llvm.coro.suspend"(%tok, %true) : (!llvm.token, i1) -> i8
  llvm.switch %fs : i8, ^suspend [
    0: ^trap,
    1: ^cleanup
  ]
^trap:
  llvm.unreachable
^cleanup:
  %f = llvm.call_intrinsic "llvm.coro.free"(%id, %hdl) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}
llvm.func @use(i32)
