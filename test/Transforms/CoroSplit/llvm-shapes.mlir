// RUN: coro-run --route=llvm %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=OUT
// RUN: coro-opt --coro-split %s | FileCheck %s

// A coroutine written directly in the LLVM dialect, in the shape clang
// emits: intrinsics through llvm.call_intrinsic (overloaded names
// included), the frame allocated only when llvm.coro.alloc says so, a
// final suspension whose save token is `none`, llvm.coro.end with its i1
// result. Route A (LLVM's CoroSplit) is the oracle: 0+1+2+3+4 from the
// first generator, 0+1 from the second (destroyed while suspended).
// OUT: {{^}}11{{$}}

// CHECK-NOT: presplitcoroutine
// CHECK-NOT: llvm.coro
// CHECK-NOT: llvm.intr.coro
// CHECK-LABEL: llvm.func @gen(
// CHECK-SAME: %[[N:.*]]: i32) -> !llvm.ptr {
// The frame: malloc'd with the computed size (header 16, promise i32 at 16,
// %i and %n kept across the yield at 20 and 24, the index at 28).
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: llvm.call @malloc(%[[SIZE]])
// Each field's address is computed next to the access (at -O0 it folds
// into it); only an alloca's or the promise's, made before coro.begin's
// place, serves every use in the ramp.
// CHECK: %[[R:.*]] = llvm.mlir.addressof @gen.resume
// CHECK: llvm.store %[[R]], %[[F:.*]] {alignment = 8 : i64}
// CHECK: %[[D:.*]] = llvm.mlir.addressof @gen.destroy
// CHECK: %[[DSLOT:.*]] = llvm.getelementptr %[[F]][8]
// CHECK: llvm.store %[[D]], %[[DSLOT]]
// CHECK: llvm.return %[[F]] : !llvm.ptr

// Consumers: done is a null test of the resume pointer, promise is an
// offset; resume and destroy of a handle straight from the ramp's call
// call gen.resume and gen.destroy directly (a handle of unknown origin
// calls through the header: elided-calls.mlir).
// CHECK-LABEL: llvm.func @main(
// CHECK: %[[RF:.*]] = llvm.load %[[H:.*]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.icmp "eq" %[[RF]], %{{.*}} : !llvm.ptr
// CHECK: llvm.getelementptr %[[H]][16]
// CHECK: llvm.call fastcc @gen.resume(%[[H]])
// CHECK: llvm.call fastcc @gen.destroy(%[[H]])

// CHECK-LABEL: llvm.func internal fastcc @gen.resume(
// CHECK-SAME: %[[FR:.*]]: !llvm.ptr) {
// CHECK: %[[IP:.*]] = llvm.getelementptr %[[FR]][28]
// CHECK: %[[IDX:.*]] = llvm.load %[[IP]] {alignment = 1 : i64} : !llvm.ptr -> i8
// The final suspension (index 1) cannot be resumed: only index 0 lands.
// CHECK: llvm.switch %[[IDX]] : i8, ^[[BAD:.*]] [
// CHECK-NEXT: 0: ^[[LAND:[a-z0-9]+]]
// CHECK-NEXT: ]
// CHECK: ^[[LAND]]:
// CHECK: llvm.load {{.*}} -> i32
// CHECK: llvm.load {{.*}} -> i32
// CHECK: ^[[BAD]]:
// CHECK-NEXT: llvm.unreachable

// Destroyed at either suspension, @gen frees its frame and nothing else:
// the destroy part reads no index.
// CHECK-LABEL: llvm.func internal fastcc @gen.destroy(
// CHECK-NOT: llvm.switch
// CHECK-NOT: llvm.load
// CHECK: llvm.call @free(%arg0)
// CHECK: llvm.return

// The cleanup variant frees nothing: llvm.coro.free returned null.
// CHECK-LABEL: llvm.func internal fastcc @gen.cleanup(
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @free(%[[NULL]])

llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)

llvm.func @gen(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %one = llvm.mlir.constant(1 : i64) : i64
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %promise = llvm.alloca %one x i32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %promise, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %need = llvm.call_intrinsic "llvm.coro.alloc"(%id) : (!llvm.token) -> i1
  llvm.cond_br %need, ^alloc, ^begin(%null : !llvm.ptr)
^alloc:
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  llvm.br ^begin(%m : !llvm.ptr)
^begin(%mem: !llvm.ptr):
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %mem) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%i: i32):
  llvm.store %i, %promise : i32, !llvm.ptr
  %save = llvm.call_intrinsic "llvm.coro.save"(%hdl) : (!llvm.ptr) -> !llvm.token
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%save, %false) : (!llvm.token, i1) -> i8
  llvm.switch %s : i8, ^suspend [
    0: ^resume,
    1: ^cleanup
  ]
^resume:
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %next = llvm.add %i, %c1 : i32
  %more = llvm.icmp "slt" %next, %n : i32
  llvm.cond_br %more, ^loop(%next : i32), ^final
^final:
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
  %unwound = llvm.intr.coro.end %hdl, %false, %none : (!llvm.ptr, i1, !llvm.token) -> i1
  llvm.return %hdl : !llvm.ptr
}

llvm.func @main() -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c100 = llvm.mlir.constant(100 : i32) : i32
  %false = llvm.mlir.constant(false) : i1
  %h = llvm.call @gen(%c5) : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%acc: i32):
  %done = llvm.call_intrinsic "llvm.coro.done"(%h) : (!llvm.ptr) -> i1
  llvm.cond_br %done, ^exit, ^body
^body:
  %p = llvm.intr.coro.promise %h, %c4, %false : (!llvm.ptr, i32, i1) -> !llvm.ptr
  %v = llvm.load %p : !llvm.ptr -> i32
  %acc2 = llvm.add %acc, %v : i32
  llvm.intr.coro.resume %h : !llvm.ptr
  llvm.br ^loop(%acc2 : i32)
^exit:
  llvm.call_intrinsic "llvm.coro.destroy"(%h) : (!llvm.ptr) -> ()
  %g = llvm.call @gen(%c100) : (i32) -> !llvm.ptr
  %q = llvm.intr.coro.promise %g, %c4, %false : (!llvm.ptr, i32, i1) -> !llvm.ptr
  %v0 = llvm.load %q : !llvm.ptr -> i32
  llvm.intr.coro.resume %g : !llvm.ptr
  %v1 = llvm.load %q : !llvm.ptr -> i32
  llvm.call_intrinsic "llvm.coro.destroy"(%g) : (!llvm.ptr) -> ()
  %s0 = llvm.add %acc, %v0 : i32
  %s1 = llvm.add %s0, %v1 : i32
  llvm.return %s1 : i32
}
