// RUN: coro-opt --coro-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=OUT

// A suspension's tail that converts what it loads (sext, then trunc) for
// a use in another block: each landing copies the tail, and the SSA repair
// gives that use the landing's copy. The landing's branch does not use the
// copies, but they must stay: erasing them as dead (as the conversions
// that only decide a branch are) left the repair a destroyed op, and
// --coro-split crashed. @gen's destroy part continues in the cleanup block
// (its landing is merged into it); @gen2's cleanup block takes an
// argument, so its landing is a block of its own. Route A is the oracle:
// @gen yields 7 and 8 and records 9, @gen2 yields 1 and 2 and records 3:
// 7 + 8 + 1 + 2 + (9 + 3) * 100 = 1218.
// OUT: {{^}}1218{{$}}

// CHECK-LABEL: llvm.func internal fastcc @gen.destroy(
// CHECK: %[[X:[0-9]+]] = llvm.load %{{[0-9]+}} : !llvm.ptr -> i64
// CHECK-NEXT: %[[W:[0-9]+]] = llvm.sext %[[X]] : i64 to i128
// CHECK-NEXT: %[[T:[0-9]+]] = llvm.trunc %[[W]] : i128 to i64
// CHECK-NEXT: llvm.call @record(%[[T]])
// CHECK-LABEL: llvm.func internal fastcc @gen2.destroy(
// CHECK: ^[[C:bb[0-9]+]](%{{[0-9]+}}: i64):
// CHECK-NEXT: llvm.call @record(%[[T2:[0-9]+]])
// CHECK: %[[X2:[0-9]+]] = llvm.load %{{[0-9]+}} : !llvm.ptr -> i64
// CHECK-NEXT: %[[W2:[0-9]+]] = llvm.sext %[[X2]] : i64 to i128
// CHECK-NEXT: %[[T2]] = llvm.trunc %[[W2]] : i128 to i64
// CHECK-NEXT: llvm.br ^[[C]](

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
  %w = llvm.sext %x : i64 to i128
  %t = llvm.trunc %w : i128 to i64
  llvm.switch %s : i8, ^end [
    0: ^resume(%x : i64),
    1: ^cleanup
  ]
^resume(%r: i64):
  %next = llvm.add %r, %one : i64
  llvm.store %next, %counter : i64, !llvm.ptr
  llvm.br ^loop
^cleanup:
  llvm.call @record(%t) : (i64) -> ()
  %f = llvm.intr.coro.free %id, %hdl : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^end
^end:
  %none = llvm.mlir.none : !llvm.token
  %u = llvm.intr.coro.end %hdl, %false, %none : (!llvm.ptr, i1, !llvm.token) -> i1
  llvm.return %hdl : !llvm.ptr
}

llvm.func @gen2(%n: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
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
  %w = llvm.sext %x : i64 to i128
  %t = llvm.trunc %w : i128 to i64
  llvm.switch %s : i8, ^end [
    0: ^resume(%x : i64),
    1: ^cleanup(%one : i64)
  ]
^resume(%r: i64):
  %next = llvm.add %r, %one : i64
  llvm.store %next, %counter : i64, !llvm.ptr
  llvm.br ^loop
^cleanup(%unused: i64):
  llvm.call @record(%t) : (i64) -> ()
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
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %false = llvm.mlir.constant(false) : i1
  %h = llvm.call @gen(%c7) : (i64) -> !llvm.ptr
  %p = llvm.intr.coro.promise %h, %c8, %false : (!llvm.ptr, i32, i1) -> !llvm.ptr
  %a = llvm.load %p : !llvm.ptr -> i64
  llvm.intr.coro.resume %h : !llvm.ptr
  %b = llvm.load %p : !llvm.ptr -> i64
  llvm.intr.coro.resume %h : !llvm.ptr
  llvm.call_intrinsic "llvm.coro.destroy"(%h) : (!llvm.ptr) -> ()
  %h2 = llvm.call @gen2(%c1) : (i64) -> !llvm.ptr
  %p2 = llvm.intr.coro.promise %h2, %c8, %false : (!llvm.ptr, i32, i1) -> !llvm.ptr
  %a2 = llvm.load %p2 : !llvm.ptr -> i64
  llvm.intr.coro.resume %h2 : !llvm.ptr
  %b2 = llvm.load %p2 : !llvm.ptr -> i64
  llvm.intr.coro.resume %h2 : !llvm.ptr
  llvm.call_intrinsic "llvm.coro.destroy"(%h2) : (!llvm.ptr) -> ()
  %g = llvm.mlir.addressof @log : !llvm.ptr
  %l = llvm.load %g : !llvm.ptr -> i64
  %ab = llvm.add %a, %b : i64
  %ab2 = llvm.add %a2, %b2 : i64
  %s = llvm.add %ab, %ab2 : i64
  %r = llvm.add %s, %l : i64
  llvm.return %r : i64
}
