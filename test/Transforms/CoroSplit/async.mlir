// RUN: coro-opt %s --coro-split | FileCheck %s
// RUN: coro-opt %s --coro-split | FileCheck %s --check-prefix=NONE
// RUN: coro-opt %s --coro-split --remarks-filter=coro-split -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: coro-translate %s --route=mlir-split --emit=llvm -O2 | FileCheck %s --check-prefix=O2
// At -O2, route B runs LLVM's pre-split simplification before the split,
// through LLVM IR: @copy.fp's zeroinitializer comes back as llvm.mlir.zero,
// and the split still writes the context size into the record.
// O2: @copy.fp = internal global <{ i32, i32 }> <{ i32 0, i32 48 }>

// --coro-split on an async coroutine (llvm.coro.id.async) as any producer
// writes it: the frame lives in the async context after its header (24
// bytes here, so at 24), and the async function pointer record's context
// size becomes header + frame, aligned to the context's 16: 48. Each
// llvm.coro.suspend.async ends its part in a must-tail call of its
// must-tail function (calling convention and all) and a return; its resume
// function (llvm.coro.async.resume) is continuation NAME.resume.N, which
// takes the members of the suspension's result, finds its context with
// the projection function, reloads what the suspension keeps and goes on
// with its parameters as the suspension's result. llvm.coro.end.async
// tail-calls its function. llvm.coro.async.size.replace copies a record's
// context size into another's. Nothing of the machinery is left.

// NONE-NOT: presplitcoroutine
// NONE-NOT: llvm.coro.
// NONE-NOT: llvm.intr.coro.

// REMARK: remark: Split 'acc' (frame_size=24, align=8)

// CHECK-LABEL: llvm.mlir.global internal @acc.fp()
// CHECK: %[[S:.*]] = llvm.mlir.constant(48 : i32) : i32
// CHECK-NEXT: llvm.insertvalue %[[S]], %{{.*}}[1]
// The record size.replace wrote into.
// CHECK-LABEL: llvm.mlir.global internal @copy.fp()
// CHECK: %[[C:.*]] = llvm.mlir.constant(48 : i32) : i32
// CHECK-NEXT: llvm.insertvalue %[[C]], %{{.*}}[1]

// The ramp: the frame at context + 24; %n, %i and %sum kept (8 bytes each)
// before the must-tail call of @park, which is passed the continuation.
// CHECK-LABEL: llvm.func swifttailcc @acc(%arg0: !llvm.ptr, %arg1: i64) {
// CHECK-NEXT: %[[F:.*]] = llvm.getelementptr %arg0[24] {{.*}} i8
// CHECK: %[[K:.*]] = llvm.mlir.addressof @acc.resume.0
// CHECK-NEXT: llvm.store %arg1, %[[F]]
// CHECK: llvm.call swifttailcc musttail @park(%arg0, %[[K]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NEXT: llvm.return
// CHECK: llvm.call swifttailcc musttail @finish(%arg0, %{{.*}}) : (!llvm.ptr, i64) -> ()
// CHECK-NEXT: llvm.return

// size.replace is gone, with the addresses it took.
// CHECK-LABEL: llvm.func @caller_size() {
// CHECK-NEXT: llvm.return

// The continuation takes the suspension's {ptr, i64}; its context is
// @project of the ptr (the context index is 0), the frame 24 bytes on.
// CHECK-LABEL: llvm.func internal swifttailcc @acc.resume.0(%arg0: !llvm.ptr, %arg1: i64) {
// CHECK-NEXT: %[[CTX:.*]] = llvm.call @project(%arg0) : (!llvm.ptr) -> !llvm.ptr
// CHECK-NEXT: %[[F2:.*]] = llvm.getelementptr %[[CTX]][24] {{.*}} i8
// It suspends again, passing its own context on.
// CHECK: llvm.call swifttailcc musttail @park(%[[CTX]], %{{.*}}, %{{.*}})
// CHECK: llvm.call swifttailcc musttail @finish(%[[CTX]], %{{.*}})
// The landing: reloads, then the suspension's result is the parameters.
// CHECK: llvm.load %[[F2]] {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: %[[R0:.*]] = llvm.insertvalue %arg0, %{{.*}}[0] : !llvm.struct<(ptr, i64)>
// CHECK-NEXT: llvm.insertvalue %arg1, %[[R0]][1] : !llvm.struct<(ptr, i64)>
llvm.mlir.global internal @acc.fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.mlir.constant(24 : i32) : i32
  %4 = llvm.insertvalue %3, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %4 : !llvm.struct<packed (i32, i32)>
}
llvm.mlir.global internal @copy.fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @llvm.coro.suspend.async.sl_p0i64s(i32, !llvm.ptr, !llvm.ptr, ...) -> !llvm.struct<(ptr, i64)>
llvm.func @llvm.coro.end.async(!llvm.ptr, i1, ...)
llvm.func @project(%ctx: !llvm.ptr) -> !llvm.ptr {
  %p = llvm.load %ctx : !llvm.ptr -> !llvm.ptr
  llvm.return %p : !llvm.ptr
}
llvm.func swifttailcc @park(!llvm.ptr, !llvm.ptr, i64)
llvm.func swifttailcc @finish(!llvm.ptr, i64)
llvm.func swifttailcc @acc(%ctx: !llvm.ptr, %n: i64) attributes {passthrough = ["presplitcoroutine"]} {
  %c24 = llvm.mlir.constant(24 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @acc.fp : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c24, %c16, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %z = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^loop(%z, %z : i64, i64)
^loop(%i: i64, %sum: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^wait, ^end
^wait:
  %rf = llvm.call_intrinsic "llvm.coro.async.resume"() : () -> !llvm.ptr
  %ci = llvm.mlir.constant(0 : i32) : i32
  %proj = llvm.mlir.addressof @project : !llvm.ptr
  %park = llvm.mlir.addressof @park : !llvm.ptr
  %r = llvm.call @llvm.coro.suspend.async.sl_p0i64s(%ci, %rf, %proj, %park, %ctx, %rf, %i) vararg(!llvm.func<struct<(ptr, i64)> (i32, ptr, ptr, ...)>) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> !llvm.struct<(ptr, i64)>
  %x = llvm.extractvalue %r[1] : !llvm.struct<(ptr, i64)>
  %sum2 = llvm.add %sum, %x : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %i2 = llvm.add %i, %c1 : i64
  llvm.br ^loop(%i2, %sum2 : i64, i64)
^end:
  %false = llvm.mlir.constant(false) : i1
  %fin = llvm.mlir.addressof @finish : !llvm.ptr
  llvm.call @llvm.coro.end.async(%hdl, %false, %fin, %ctx, %sum) vararg(!llvm.func<void (ptr, i1, ...)>) : (!llvm.ptr, i1, !llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.unreachable
}
llvm.func @caller_size() {
  %a = llvm.mlir.addressof @copy.fp : !llvm.ptr
  %b = llvm.mlir.addressof @acc.fp : !llvm.ptr
  llvm.call_intrinsic "llvm.coro.async.size.replace"(%a, %b) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}
