// RUN: coro-opt %s --coro-split | FileCheck %s

// Route B splits switch coroutines; a coroutine whose coro.id is another
// ABI's (retcon, retcon.once, async) is left as it is, still presplit, for
// LLVM's CoroSplit, which coro-run and coro-translate run after
// --coro-split. Its consumer intrinsics are lowered like every function's
// (so that every handle shares one noop frame); its own are kept.

// CHECK-LABEL: llvm.func @rc(
// CHECK-SAME: passthrough = ["presplitcoroutine"]
// CHECK: llvm.call_intrinsic "llvm.coro.id.retcon"
// CHECK: llvm.call_intrinsic "llvm.coro.begin"
// CHECK-NOT: llvm.coro.noop
// CHECK: llvm.mlir.addressof @__coro_noop_frame
// CHECK: llvm.call_intrinsic "llvm.coro.suspend.retcon"
// CHECK: llvm.call_intrinsic "llvm.coro.end"
llvm.func @rc.proto(!llvm.ptr, i1) -> !llvm.ptr
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @rc(%buf: !llvm.ptr) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %proto = llvm.mlir.addressof @rc.proto : !llvm.ptr
  %alloc = llvm.mlir.addressof @malloc : !llvm.ptr
  %free = llvm.mlir.addressof @free : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %alloc, %free) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %nop = llvm.call_intrinsic "llvm.coro.noop"() : () -> !llvm.ptr
  %unwind = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%nop) : (!llvm.ptr) -> i1
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}
