// RUN: coro-opt %s --convert-coro-to-llvm-retcon | FileCheck %s --check-prefixes=CHECK,ROUTEA
// RUN: sed -e '1i module attributes {coro.route = "mlir-split"} {' -e '$a }' %s \
// RUN:   | coro-opt --convert-coro-to-llvm-retcon | FileCheck %s --check-prefixes=CHECK,ROUTEB

// A retcon coroutine whose yields take an f32 on resume, in a 48-byte,
// 16-aligned buffer, and a function that feeds and destroys it.

// The vararg suspend intrinsic, declared under LLVM's mangled name for its
// {i1, f32} result.
// CHECK: llvm.func @llvm.coro.suspend.retcon.sl_i1f32s(...) -> !llvm.struct<(i1, f32)>

// The coroutine becomes the private ramp: buffer first, {continuation,
// published value, handle to run next} returned; LLVM splits it (presplitcoroutine), and it is
// never inlined before CoroCleanup (noinline).
// CHECK-LABEL: func.func private @acc.coro.ramp
// CHECK-SAME: (%[[BUF:.*]]: !llvm.ptr, %{{.*}}: i32) -> !llvm.struct<(ptr, i64, ptr)>
// CHECK-SAME: passthrough = ["presplitcoroutine", "noinline"]
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(48 : i32) : i32
// CHECK: %[[ALIGN:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[PROTO:.*]] = llvm.mlir.addressof @acc.coro.proto
// Frames that do not fit the buffer: an adapter over aligned_alloc.
// CHECK: %[[ALLOC:.*]] = llvm.mlir.addressof @acc.coro.alloc
// CHECK: %[[FREE:.*]] = llvm.mlir.addressof @free
// CHECK: %[[ID:.*]] = llvm.call_intrinsic "llvm.coro.id.retcon"(%[[SIZE]], %[[ALIGN]], %[[BUF]], %[[PROTO]], %[[ALLOC]], %[[FREE]])
// CHECK: %[[HDL:.*]] = llvm.intr.coro.begin %[[ID]]
// The control block is found at a fixed offset before the buffer.
// CHECK: %[[FIELD:.*]] = llvm.getelementptr %[[BUF]][0, 5] {{.*}} !llvm.struct<(ptr, ptr, struct<(ptr, i64)>, ptr, f32, array<3 x i128>)>
// CHECK: %[[B:.*]] = llvm.ptrtoint %[[BUF]]
// CHECK: %[[F:.*]] = llvm.ptrtoint %[[FIELD]]
// CHECK: %[[NEG:.*]] = llvm.sub %[[B]], %[[F]]
// CHECK: %[[SELF:.*]] = llvm.getelementptr %[[BUF]][%[[NEG]]]
// The first yield's flag and value are used: the flag replaces the result.
// A yield names nothing to run next (null).
// CHECK: %[[NOTHING:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[R1:.*]] = llvm.call @llvm.coro.suspend.retcon.sl_i1f32s(%[[V:.*]], %[[NOTHING]]) vararg(!llvm.func<struct<(i1, f32)> (...)>) : (i64, !llvm.ptr) -> !llvm.struct<(i1, f32)>
// CHECK: %[[X:.*]] = llvm.extractvalue %[[R1]][1]
// CHECK: %[[D1:.*]] = llvm.extractvalue %[[R1]][0]
// CHECK: llvm.br ^[[NEXT:.*]]
// CHECK: ^[[NEXT]]:
// CHECK: call @sink(%[[D1]], %[[X]])
// The second's flag is unused: an abnormal resumption goes to the end.
// CHECK: %[[R2:.*]] = llvm.call @llvm.coro.suspend.retcon.sl_i1f32s
// CHECK: %[[D2:.*]] = llvm.extractvalue %[[R2]][0]
// CHECK: llvm.cond_br %[[D2]], ^[[END:.*]](%{{.*}} : i64), ^[[CONT:[^ ]*]]
// coro.end with a value stores it in the promise through the control block
// (at 16 from it, where consumers read it).
// CHECK: ^[[CONT]]:
// CHECK: %[[PP:.*]] = llvm.getelementptr %[[SELF]][16]
// CHECK: %[[PV:.*]] = llvm.getelementptr %[[PP]][0, 1] {{.*}} !llvm.struct<(ptr, i64)>
// CHECK: llvm.store %[[FINAL:.*]], %[[PV]]
// CHECK: llvm.br ^[[END]](%[[FINAL]] : i64)
// The one coro.end: CoroSplit replaces what follows it with the return.
// CHECK: ^[[END]](%{{.*}}: i64):
// CHECK: %[[NONE:.*]] = llvm.mlir.none : !llvm.token
// CHECK: llvm.call_intrinsic "llvm.coro.end"(%[[HDL]], %{{.*}}, %[[NONE]])
// CHECK: %[[OPAQUE:.*]] = llvm.load %[[BUF]]
// CHECK: return %[[OPAQUE]] : !llvm.struct<(ptr, i64, ptr)>
func.func @acc(%x: i32) -> !coro.handle<i64> attributes {coro.abi = "retcon", coro.buffer = array<i64: 48, 16>} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %d, %r = "coro.yield"(%c0) : (i64) -> (i1, f32)
  func.call @sink(%d, %r) : (i1, f32) -> ()
  "coro.yield"(%c0) : (i64) -> (i1, f32)
  %c9 = arith.constant 9 : i64
  "coro.end"(%h, %c9) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func private @sink(i1, f32)

// A value passed on resume goes into the control block's resume slot, then
// the handle is resumed like any other.
// CHECK-LABEL: func.func @use
// CHECK: %[[G:.*]] = call @acc(%{{.*}}) : (i32) -> !llvm.ptr
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[G]][0, 4] {{.*}} !llvm.struct<(ptr, ptr, struct<(ptr, i64)>, ptr, f32)>
// CHECK: llvm.store %{{.*}}, %[[SLOT]] {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK: llvm.intr.coro.resume %[[G]]
// CHECK: llvm.call_intrinsic "llvm.coro.destroy"(%[[G]])
func.func @use(%x: i32) {
  %g = call @acc(%x) : (i32) -> !coro.handle<i64>
  %f = arith.constant 1.0 : f32
  "coro.resume"(%g, %f) : (!coro.handle<i64>, f32) -> ()
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

// The continuations' prototype: (buffer, abnormal, resume value).
// CHECK: llvm.func @acc.coro.proto(!llvm.ptr, i1, f32) -> !llvm.struct<(ptr, i64, ptr)>

// CHECK-LABEL: llvm.func internal @acc.coro.alloc
// CHECK: llvm.mlir.constant(64 : i64)
// CHECK: llvm.call @aligned_alloc

// settle records a suspension (continuation, value; returns the handle
// the suspension names, if any) or the end (resume entry cleared: done; returns the
// awaiting continuation). A suspension that returns the continuation that
// ran (%prev, its third argument) leaves the control block's as it is.
// CHECK-LABEL: llvm.func internal @acc.coro.settle
// CHECK-SAME: %[[PREV:[a-z0-9]+]]: !llvm.ptr) -> !llvm.ptr
// CHECK: %[[C:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK: llvm.icmp "eq"
// CHECK: llvm.getelementptr %{{.*}}[0, 0]
// CHECK: llvm.getelementptr %{{.*}}[16]
// CHECK: %[[SAME:.*]] = llvm.icmp "eq" %[[C]], %[[PREV]]
// CHECK-NEXT: llvm.cond_br %[[SAME]], ^[[PUB:.*]], ^[[NEW:[^ ]*]]
// CHECK: ^[[NEW]]:
// CHECK: llvm.store %[[C]], %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.br ^[[PUB]]
// CHECK: ^[[PUB]]:
// CHECK: %[[SP:.*]] = llvm.getelementptr %{{.*}}[16]
// CHECK: %[[SV:.*]] = llvm.getelementptr %[[SP]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, i64)>
// CHECK: llvm.store %{{.*}}, %[[SV]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK: %[[NEXT:.*]] = llvm.extractvalue %{{.*}}[2]
// CHECK: llvm.return %[[NEXT]]

// The resume entry (fastcc, like every handle's): runs the continuation
// with abnormal = false and the resume slot, then tail-calls what runs next.
// The call names the ramp whose continuation it calls: under route B,
// --coro-split calls those directly (CoroSplit/retcon.mlir), and settle
// gets the continuation as %prev (a module marked coro.route =
// "mlir-split"); under route A, which never knows it, null (free: the
// suspended side's continuation is never null).
// CHECK-LABEL: llvm.func internal fastcc @acc.coro.resume
// CHECK: %[[K:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[NO:.*]] = llvm.mlir.constant(false) : i1
// CHECK: %[[SLOTV:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[R:.*]] = llvm.call %[[K]](%{{.*}}, %[[NO]], %[[SLOTV]]) {coro.continuation_of = @acc.coro.ramp} : !llvm.ptr, (!llvm.ptr, i1, f32) -> !llvm.struct<(ptr, i64, ptr)>
// ROUTEA: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// ROUTEA-NEXT: llvm.call @acc.coro.settle(%{{.*}}, %[[R]], %[[NULL]])
// ROUTEB: llvm.call @acc.coro.settle(%{{.*}}, %[[R]], %[[K]])
// CHECK: llvm.call fastcc musttail

// The destroy entry resumes a live coroutine abnormally, then frees.
// CHECK-LABEL: llvm.func internal fastcc @acc.coro.destroy
// CHECK: %[[YES:.*]] = llvm.mlir.constant(true) : i1
// CHECK: llvm.call %{{.*}}(%{{.*}}, %[[YES]], %{{.*}}) {coro.continuation_of = @acc.coro.ramp} : !llvm.ptr, (!llvm.ptr, i1, f32)
// CHECK: llvm.call @free

// The coroutine's name is now an ordinary function: it allocates the
// control block, fills its header and runs the ramp on its buffer.
// CHECK-LABEL: func.func @acc(%{{.*}}: i32) -> !llvm.ptr
// CHECK: %[[CB:.*]] = llvm.call @malloc
// CHECK: llvm.mlir.addressof @acc.coro.resume
// CHECK: llvm.mlir.addressof @acc.coro.destroy
// CHECK: %[[RB:.*]] = llvm.getelementptr %[[CB]][0, 5]
// CHECK: %[[RES:.*]] = call @acc.coro.ramp(%[[RB]], %{{.*}})
// CHECK: %[[NOCONT:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: llvm.call @acc.coro.settle(%[[CB]], %[[RES]], %[[NOCONT]])
// CHECK: return %[[CB]] : !llvm.ptr
