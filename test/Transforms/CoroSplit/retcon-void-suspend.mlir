// RUN: coro-opt %s --coro-split | FileCheck %s
// RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT

// A returned-continuation coroutine whose prototype takes only the buffer:
// its llvm.coro.suspend.retcon returns nothing (a shape of LLVM's own
// coroutine tests). Nothing after the suspend depends on how it resumed;
// the split used to read the missing result and crash.

// CHECK-LABEL: llvm.func @gen(
// CHECK: %[[K:.+]] = llvm.mlir.addressof @gen.resume.0
// CHECK: llvm.return %[[K]] : !llvm.ptr
// CHECK-LABEL: llvm.func internal @gen.resume.0(%arg0: !llvm.ptr) -> !llvm.ptr
// CHECK: llvm.call @use(
// CHECK-NOT: llvm.coro
llvm.func @gen.proto(!llvm.ptr) -> !llvm.ptr
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.mlir.global internal @seen(0 : i64) : i64
llvm.func @use(%v: i64) {
  %g = llvm.mlir.addressof @seen : !llvm.ptr
  llvm.store %v, %g : i64, !llvm.ptr
  llvm.return
}
llvm.func @gen(%buf: !llvm.ptr, %a: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %proto = llvm.mlir.addressof @gen.proto : !llvm.ptr
  %alloc = llvm.mlir.addressof @malloc : !llvm.ptr
  %free = llvm.mlir.addressof @free : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %alloc, %free) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> ()
  llvm.call @use(%a) : (i64) -> ()
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// main runs the ramp and its one continuation: @use sees 42.
// OUT: 42
llvm.func @main() -> i64 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %a = llvm.mlir.constant(42 : i64) : i64
  %buf = llvm.alloca %one x !llvm.array<8 x i64> : (i64) -> !llvm.ptr
  %k = llvm.call @gen(%buf, %a) : (!llvm.ptr, i64) -> !llvm.ptr
  %next = llvm.call %k(%buf) : !llvm.ptr, (!llvm.ptr) -> !llvm.ptr
  %g = llvm.mlir.addressof @seen : !llvm.ptr
  %v = llvm.load %g : !llvm.ptr -> i64
  llvm.return %v : i64
}
