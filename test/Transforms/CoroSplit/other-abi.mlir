// RUN: coro-opt %s --coro-split | FileCheck %s

// Route B splits switch, retcon and retcon.once coroutines; a coroutine
// whose coro.id is the async ABI's is left as it is, still presplit, for
// LLVM's CoroSplit, which coro-run and coro-translate run after
// --coro-split. Its consumer intrinsics are lowered like every function's
// (so that every handle shares one noop frame); its own are kept, and so
// are the declarations it calls.

// CHECK-LABEL: llvm.func @llvm.coro.suspend.async.sl_p0s(
// CHECK-LABEL: llvm.func @ac(
// CHECK-SAME: passthrough = ["presplitcoroutine"]
// CHECK: llvm.call_intrinsic "llvm.coro.id.async"
// CHECK: llvm.call_intrinsic "llvm.coro.begin"
// CHECK-NOT: llvm.coro.noop
// CHECK: llvm.mlir.addressof @__coro_noop_frame
// CHECK: llvm.call @llvm.coro.suspend.async.sl_p0s
// CHECK: llvm.call_intrinsic "llvm.coro.end"
llvm.mlir.global internal constant @ac.fp(dense<0> : vector<2xi32>) : vector<2xi32>
llvm.func @llvm.coro.suspend.async.sl_p0s(...) -> !llvm.struct<(ptr)>
llvm.func @ac(%ctx: !llvm.ptr) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @ac.fp : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %nop = llvm.call_intrinsic "llvm.coro.noop"() : () -> !llvm.ptr
  %r = llvm.call @llvm.coro.suspend.async.sl_p0s(%c0, %nop, %nop) vararg(!llvm.func<struct<(ptr)> (...)>) : (i32, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(ptr)>
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return
}
