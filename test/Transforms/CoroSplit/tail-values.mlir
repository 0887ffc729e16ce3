// RUN: coro-opt --coro-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=OUT

// A value computed after llvm.coro.suspend in its block and used in other
// blocks: LLVM's pre-split passes make this shape when both successors of
// a suspension load the same alloca (they hoist the load into the
// suspension's block, after the suspend; the differential test's seed
// 21032 at -O2). Each landing computes the tail again, and the uses in
// other blocks take the landing's copy (SSA repair); the value is not
// kept in the frame (it is computed after the suspension). Route A is the
// oracle: the counter goes 7, 8, 9 while resumed twice, and the destroy
// path records the 9 it loads: 7 + 8 + 9 * 100 = 915.
// OUT: {{^}}915{{$}}

// The frame keeps the counter's alloca, not the loaded value: the destroy
// part's landing loads it again, at the front of the cleanup block it
// continues with (the suspension's block is that block's only
// predecessor), and the cleanup block records that load.
// CHECK-LABEL: llvm.func internal fastcc @gen.destroy(
// CHECK: ^bb1:
// CHECK-NEXT: %[[A:[0-9]+]] = llvm.getelementptr %arg0[24]
// CHECK-NEXT: %[[X:[0-9]+]] = llvm.load %[[A]] : !llvm.ptr -> i64
// CHECK-NEXT: llvm.call @record(%[[X]])

llvm.mlir.global internal @log(0 : i64) : i64
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)

llvm.func @record(%x: i64) {
  %g = llvm.mlir.addressof @log : !llvm.ptr
  %c100 = llvm.mlir.constant(100 : i64) : i64
  %old = llvm.load %g : !llvm.ptr -> i64
  %y = llvm.mul %x, %c100 : i64
  %new = llvm.add %old, %y : i64
  llvm.store %new, %g : i64, !llvm.ptr
  llvm.return
}

llvm.func @gen(%n: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %promise = llvm.alloca %one x i64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
  %counter = llvm.alloca %one x i64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
  %id = llvm.intr.coro.id %c0, %promise, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.intr.coro.size : i64
  %mem = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.intr.coro.begin %id, %mem : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.store %n, %counter : i64, !llvm.ptr
  llvm.br ^loop
^loop:
  %v = llvm.load %counter : !llvm.ptr -> i64
  llvm.store %v, %promise : i64, !llvm.ptr
  %save = llvm.intr.coro.save %hdl : (!llvm.ptr) -> !llvm.token
  %s = llvm.intr.coro.suspend %save, %false : i8
  %x = llvm.load %counter : !llvm.ptr -> i64
  llvm.switch %s : i8, ^end [
    0: ^resume(%x : i64),
    1: ^cleanup
  ]
^resume(%r: i64):
  %next = llvm.add %r, %one : i64
  llvm.store %next, %counter : i64, !llvm.ptr
  llvm.br ^loop
^cleanup:
  llvm.call @record(%x) : (i64) -> ()
  %f = llvm.intr.coro.free %id, %hdl : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^end
^end:
  %none = llvm.mlir.none : !llvm.token
  %u = llvm.intr.coro.end %hdl, %false, %none : (!llvm.ptr, i1, !llvm.token) -> i1
  llvm.return %hdl : !llvm.ptr
}

llvm.func @main() -> i64 {
  %c7 = llvm.mlir.constant(7 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %false = llvm.mlir.constant(false) : i1
  %h = llvm.call @gen(%c7) : (i64) -> !llvm.ptr
  %p = llvm.intr.coro.promise %h, %c8, %false : (!llvm.ptr, i32, i1) -> !llvm.ptr
  %a = llvm.load %p : !llvm.ptr -> i64
  llvm.intr.coro.resume %h : !llvm.ptr
  %b = llvm.load %p : !llvm.ptr -> i64
  llvm.intr.coro.resume %h : !llvm.ptr
  llvm.call_intrinsic "llvm.coro.destroy"(%h) : (!llvm.ptr) -> ()
  %g = llvm.mlir.addressof @log : !llvm.ptr
  %l = llvm.load %g : !llvm.ptr -> i64
  %ab = llvm.add %a, %b : i64
  %r = llvm.add %ab, %l : i64
  llvm.return %r : i64
}
