// RUN: coro-opt %s --coro-split | FileCheck %s
// RUN: coro-opt %s --coro-split | FileCheck %s --check-prefix=NONE
// RUN: coro-opt %s --coro-split --remarks-filter=coro-split -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: coro-translate %s --route=mlir-split --emit=split-llvm -O2 2>&1 | FileCheck %s --check-prefix=O2
// At -O2, route B runs LLVM's pre-split simplification before the split,
// through LLVM IR; this module spells llvm.coro.suspend.retcon with
// llvm.call_intrinsic and without its mangled result type, which MLIR's
// translation cannot express (the intrinsic is variadic and overloaded on
// its result): the translation calls a variadic declaration of its mangled
// name instead (tools/llvm-ir-vararg-intrinsics.test), with no error.
// O2-NOT: error
// O2: define { ptr, i64 } @gen(
// O2-NOT: llvm.coro.

// --coro-split on returned-continuation coroutines (llvm.coro.id.retcon and
// .retcon.once) as any producer writes them: the ramp returns its first
// continuation and what it yields; one continuation NAME.resume.N per
// suspension, of the prototype's type; the frame (no header: each
// continuation knows where it resumes) in the caller's buffer when it fits,
// else from the id's allocator, its address in the buffer's first word and
// freed at the end. The buffer itself is never kept: every continuation is
// passed it. Nothing of the coroutine machinery is left.

// NONE-NOT: presplitcoroutine
// NONE-NOT: llvm.coro.
// NONE-NOT: llvm.intr.coro.

// @gen yields 0..n-1; %n and %i live across the suspension: 16 bytes, which
// fit its 16-byte buffer.
// REMARK: remark: Split 'gen' (frame_size=16, align=8)
// CHECK-LABEL: llvm.func @gen(%arg0: !llvm.ptr, %arg1: i64) -> !llvm.struct<(ptr, i64)> {
// CHECK: ^bb2:
// CHECK-NEXT: llvm.store %arg1, %arg0 {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NEXT: %[[AT8:.*]] = llvm.getelementptr %arg0[8]
// CHECK-NEXT: llvm.store %[[I:.*]], %[[AT8]]
// CHECK-NEXT: %[[K:.*]] = llvm.mlir.addressof @gen.resume.0
// CHECK-NEXT: llvm.br ^[[RET:.*]](%[[K]], %[[I]] : !llvm.ptr, i64)
// The end returns a null continuation.
// CHECK: ^bb3:
// CHECK-NEXT: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: %[[UNSET:.*]] = llvm.mlir.poison : i64
// CHECK-NEXT: llvm.br ^[[RET]](%[[NULL]], %[[UNSET]] : !llvm.ptr, i64)
// Both return through one block that builds the result from its fields, so
// a caller that inlines the function sees each field per path
// (split_unify_returns).
// CHECK: ^[[RET]](%[[C:.*]]: !llvm.ptr, %[[V:.*]]: i64):
// CHECK-NEXT: %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, i64)>
// CHECK-NEXT: %[[R0:.*]] = llvm.insertvalue %[[C]], %[[P]][0]
// CHECK-NEXT: %[[R1:.*]] = llvm.insertvalue %[[V]], %[[R0]][1]
// CHECK-NEXT: llvm.return %[[R1]]
llvm.func @gen.proto(!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @gen(%buf: !llvm.ptr, %n: i64) -> !llvm.struct<(ptr, i64)> attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %proto = llvm.mlir.addressof @gen.proto : !llvm.ptr
  %alloc = llvm.mlir.addressof @malloc : !llvm.ptr
  %free = llvm.mlir.addressof @free : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c16, %c8, %buf, %proto, %alloc, %free) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %c0 = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^yield, ^end
^yield:
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%i) : (i64) -> i1
  llvm.cond_br %abn, ^end, ^next
^next:
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %i2 = llvm.add %i, %c1 : i64
  llvm.br ^loop(%i2 : i64)
^end:
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// @big keeps %a and %b (16 bytes) in an 8-byte buffer: the ramp allocates
// the frame with @my_alloc (whose parameter is an i32) and keeps its
// address in the buffer; the continuation loads it and frees it at the end.
// REMARK: remark: Split 'big' (frame_size=16, align=8)
// CHECK-LABEL: llvm.func @big(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64) -> !llvm.ptr {
// CHECK-NEXT: %[[SIZE:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[F:.*]] = llvm.call @my_alloc(%[[SIZE]]) : (i32) -> !llvm.ptr
// CHECK-NEXT: llvm.store %[[F]], %arg0
// CHECK-NEXT: llvm.store %arg1, %[[F]]
// CHECK: %[[K:.*]] = llvm.mlir.addressof @big.resume.0
// CHECK-NEXT: llvm.return %[[K]] : !llvm.ptr
llvm.func @big.proto(!llvm.ptr, i1) -> !llvm.ptr
llvm.func @my_alloc(i32) -> !llvm.ptr
llvm.func @my_free(!llvm.ptr)
llvm.func @use(i64)
llvm.func @use_cont(!llvm.ptr)
llvm.func @big(%buf: !llvm.ptr, %a: i64, %b: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %proto = llvm.mlir.addressof @big.proto : !llvm.ptr
  %alloc = llvm.mlir.addressof @my_alloc : !llvm.ptr
  %free = llvm.mlir.addressof @my_free : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %alloc, %free) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  llvm.call @use(%a) : (i64) -> ()
  llvm.call @use(%b) : (i64) -> ()
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// @once (retcon.once) yields %x, is resumed with a new value and returns
// %x + new (llvm.coro.end.results) from its one continuation, whose type
// is the prototype's. The frame keeps %x.
// REMARK: remark: Split 'once' (frame_size=8, align=8)
// CHECK-LABEL: llvm.func @once(%arg0: !llvm.ptr, %arg1: i64) -> !llvm.struct<(ptr, i64)> {
// CHECK-NEXT: llvm.store %arg1, %arg0
// CHECK-NEXT: %[[K:.*]] = llvm.mlir.addressof @once.resume.0
// CHECK: llvm.return
llvm.func @once.proto(!llvm.ptr, i1, i64) -> i64
llvm.func @once(%buf: !llvm.ptr, %x: i64) -> !llvm.struct<(ptr, i64)> attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %proto = llvm.mlir.addressof @once.proto : !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon.once"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %r = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%x) : (i64) -> !llvm.struct<(i1, i64)>
  %new = llvm.extractvalue %r[1] : !llvm.struct<(i1, i64)>
  %sum = llvm.add %x, %new : i64
  %tok = llvm.call_intrinsic "llvm.coro.end.results"(%sum) : (i64) -> !llvm.token
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %tok) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

llvm.func @caller(%buf: !llvm.ptr) -> i64 {
  %c5 = llvm.mlir.constant(5 : i64) : i64
  %f = llvm.mlir.addressof @once : !llvm.ptr
  %p = llvm.call_intrinsic "llvm.coro.prepare.retcon"(%f) : (!llvm.ptr) -> !llvm.ptr
  %r = llvm.call %p(%buf, %c5) : !llvm.ptr, (!llvm.ptr, i64) -> !llvm.struct<(ptr, i64)>
  %k = llvm.extractvalue %r[0] : !llvm.struct<(ptr, i64)>
  %false = llvm.mlir.constant(false) : i1
  %v = llvm.call %k(%buf, %false, %c5) : !llvm.ptr, (!llvm.ptr, i1, i64) -> i64
  llvm.return %v : i64
}

// A caller's llvm.coro.prepare.retcon is the function itself.
// CHECK-LABEL: llvm.func @caller(
// CHECK-NEXT: llvm.mlir.constant(5 : i64)
// CHECK-NEXT: %[[ONCE:.*]] = llvm.mlir.addressof @once
// CHECK-NEXT: llvm.call %[[ONCE]](%arg0,

// A call marked coro.continuation_of (as the retcon conversion's resume and
// destroy entries mark theirs) calls one of the continuations of the ramp
// it names: it becomes a direct call (LLVM can inline it). @gen has one
// continuation, so there is nothing to test: LLVM is told it is that one
// (an llvm.assume, which emits no code), so it knows the callee in the
// continuation once inlined too.
// CHECK-LABEL: llvm.func @drive(
// CHECK-NEXT: %[[F:.*]] = llvm.mlir.constant(false)
// CHECK-NEXT: %[[K:.*]] = llvm.mlir.addressof @gen.resume.0
// CHECK-NEXT: %[[IS:.*]] = llvm.icmp "eq" %arg1, %[[K]]
// CHECK-NEXT: llvm.intr.assume %[[IS]] : i1
// CHECK-NEXT: %[[R:.*]] = llvm.call @gen.resume.0(%arg0, %[[F]]) : (!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
// CHECK-NEXT: llvm.br ^[[JOIN:.*]](%[[R]]
// CHECK: ^[[JOIN]](%[[V:.*]]: !llvm.struct<(ptr, i64)>):
// CHECK-NEXT: llvm.extractvalue %[[V]][1]
// CHECK-NOT: llvm.call %arg1
llvm.func @drive(%buf: !llvm.ptr, %k: !llvm.ptr) -> i64 {
  %false = llvm.mlir.constant(false) : i1
  %r = llvm.call %k(%buf, %false) {coro.continuation_of = @gen} : !llvm.ptr, (!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
  %v = llvm.extractvalue %r[1] : !llvm.struct<(ptr, i64)>
  llvm.return %v : i64
}

// @two has two continuations: the callee is tested against the first, and
// is the second when it is not that one. What follows the call is copied
// after each direct call, with the callee known there (@drive_two passes
// it to @use_cont: the first copy passes @two.resume.0, the second
// @two.resume.1), so that LLVM specializes it to what that continuation
// returns; no indirect call is left.
// CHECK-LABEL: llvm.func @drive_two(
// CHECK: %[[K0:.*]] = llvm.mlir.addressof @two.resume.0
// CHECK-NEXT: %[[IS:.*]] = llvm.icmp "eq" %arg1, %[[K0]]
// CHECK-NEXT: llvm.cond_br %[[IS]], ^[[FIRST:.*]], ^[[SECOND:[^ ]*]]
// CHECK: ^[[FIRST]]:
// CHECK-NEXT: %[[A0:.*]] = llvm.mlir.addressof @two.resume.0
// CHECK-NEXT: %[[R0:.*]] = llvm.call @two.resume.0(%arg0, %{{.*}})
// CHECK-NEXT: llvm.br ^[[COPY0:.*]](%[[R0]]
// The second, untested, is said to LLVM (an llvm.assume, no code).
// CHECK: ^[[SECOND]]:
// CHECK-NEXT: %[[K1:.*]] = llvm.mlir.addressof @two.resume.1
// CHECK-NEXT: %[[IS1:.*]] = llvm.icmp "eq" %arg1, %[[K1]]
// CHECK-NEXT: llvm.intr.assume %[[IS1]] : i1
// CHECK-NEXT: %[[A1:.*]] = llvm.mlir.addressof @two.resume.1
// CHECK-NEXT: %[[R1:.*]] = llvm.call @two.resume.1(%arg0, %{{.*}})
// CHECK-NEXT: llvm.br ^[[COPY1:.*]](%[[R1]]
// CHECK: ^[[COPY0]](%[[V0:.*]]: !llvm.struct<(ptr, i64)>):
// CHECK-NEXT: %[[E0:.*]] = llvm.extractvalue %[[V0]][1]
// CHECK-NEXT: llvm.call @use(%[[E0]])
// CHECK-NEXT: llvm.call @use_cont(%[[A0]])
// CHECK-NEXT: llvm.return
// CHECK: ^[[COPY1]](%[[V1:.*]]: !llvm.struct<(ptr, i64)>):
// CHECK-NEXT: %[[E1:.*]] = llvm.extractvalue %[[V1]][1]
// CHECK-NEXT: llvm.call @use(%[[E1]])
// CHECK-NEXT: llvm.call @use_cont(%[[A1]])
// CHECK-NEXT: llvm.return
// CHECK-NOT: llvm.call %arg1
// CHECK-NOT: @use_cont(%arg1)
llvm.func @two.proto(!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
llvm.func @two(%buf: !llvm.ptr, %a: i64, %b: i64) -> !llvm.struct<(ptr, i64)> attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %proto = llvm.mlir.addressof @two.proto : !llvm.ptr
  %alloc = llvm.mlir.addressof @malloc : !llvm.ptr
  %free = llvm.mlir.addressof @free : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c16, %c8, %buf, %proto, %alloc, %free) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%a) : (i64) -> i1
  llvm.cond_br %abn, ^end, ^second
^second:
  %abn2 = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%b) : (i64) -> i1
  llvm.br ^end
^end:
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}
llvm.func @drive_two(%buf: !llvm.ptr, %k: !llvm.ptr) {
  %false = llvm.mlir.constant(false) : i1
  %r = llvm.call %k(%buf, %false) {coro.continuation_of = @two} : !llvm.ptr, (!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
  %v = llvm.extractvalue %r[1] : !llvm.struct<(ptr, i64)>
  llvm.call @use(%v) : (i64) -> ()
  llvm.call @use_cont(%k) : (!llvm.ptr) -> ()
  llvm.return
}

// A tail that reads neither the result nor the callee (a destroy entry's
// free and return) is the same after every direct call: the calls share
// it, and it is not copied.
// CHECK-LABEL: llvm.func @destroy_two(
// CHECK: llvm.call @two.resume.0(%arg0, %{{.*}})
// CHECK-NEXT: llvm.br ^[[TAIL:[^ (]*]](
// CHECK: llvm.call @two.resume.1(%arg0, %{{.*}})
// CHECK-NEXT: llvm.br ^[[TAIL]](
// CHECK: ^[[TAIL]](%{{.*}}: !llvm.struct<(ptr, i64)>):
// CHECK-NEXT: llvm.call @free(%arg0)
// CHECK-NEXT: llvm.return
// CHECK-NOT: llvm.call @free
llvm.func @destroy_two(%buf: !llvm.ptr, %k: !llvm.ptr) {
  %true = llvm.mlir.constant(true) : i1
  %r = llvm.call %k(%buf, %true) {coro.continuation_of = @two} : !llvm.ptr, (!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
  llvm.call @free(%buf) : (!llvm.ptr) -> ()
  llvm.return
}

// A tail that reads the callee only, further on (after a branch), is
// copied, as one that reads the result is.
// CHECK-LABEL: llvm.func @callee_later(
// CHECK-COUNT-2: llvm.call @use_cont(
// CHECK-NOT: llvm.call @use_cont(
llvm.func @callee_later(%buf: !llvm.ptr, %k: !llvm.ptr, %c: i1) {
  %true = llvm.mlir.constant(true) : i1
  %r = llvm.call %k(%buf, %true) {coro.continuation_of = @two} : !llvm.ptr, (!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
  llvm.cond_br %c, ^use, ^done
^use:
  llvm.call @use_cont(%k) : (!llvm.ptr) -> ()
  llvm.br ^done
^done:
  llvm.return
}

// The continuations, after the functions of the input. The abnormal
// side of a suspension goes only to the end: it is the unlikely one.
// CHECK-LABEL: llvm.func internal @gen.resume.0(%arg0: !llvm.ptr, %arg1: i1) -> !llvm.struct<(ptr, i64)> {
// CHECK: llvm.cond_br %arg1 weights([1, 2000]),
// CHECK: %[[N:.*]] = llvm.load %arg0 {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK-NEXT: %[[AT8:.*]] = llvm.getelementptr %arg0[8]
// CHECK-NEXT: llvm.load %[[AT8]] {alignment = 8 : i64} : !llvm.ptr -> i64

// CHECK-LABEL: llvm.func internal @big.resume.0(%arg0: !llvm.ptr, %arg1: i1) -> !llvm.ptr {
// CHECK-NEXT: %[[F:.*]] = llvm.load %arg0 {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @use
// CHECK: llvm.call @use
// CHECK-NEXT: llvm.call @my_free(%[[F]])
// CHECK-NEXT: %[[NULL:.*]] = llvm.mlir.zero
// CHECK-NEXT: llvm.return %[[NULL]] : !llvm.ptr

// CHECK-LABEL: llvm.func internal @once.resume.0(%arg0: !llvm.ptr, %arg1: i1, %arg2: i64) -> i64 {
// CHECK: %[[NEW:.*]] = llvm.extractvalue %[[R:.*]][1]
// CHECK-NEXT: %[[SUM:.*]] = llvm.add %[[X:.*]], %[[NEW]] : i64
// CHECK-NEXT: llvm.return %[[SUM]] : i64
// CHECK: %[[X]] = llvm.load %arg0 {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: %[[R1:.*]] = llvm.insertvalue %arg1, %{{.*}}[0]
// CHECK-NEXT: %[[R]] = llvm.insertvalue %arg2, %[[R1]][1]
