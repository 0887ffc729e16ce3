// RUN: coro-opt %s --coro-split | FileCheck %s
// RUN: coro-opt %s --coro-split | FileCheck %s --check-prefix=NONE
// RUN: coro-opt %s --coro-split | FileCheck %s --check-prefix=FIVE

// A retcon ramp marked coro.continuation_state (as the retcon conversion
// marks its ramps: the continuations' addresses reach nothing but the
// calls marked coro.continuation_of) gets state numbers in place of its
// continuations' addresses once every marked call of it is direct:
// continuation k is inttoptr(k + 1), in what the parts return and in the
// tests of the compare chain. No address of a continuation is taken.

// NONE-NOT: coro.continuation_state
// NONE-NOT: llvm.mlir.addressof @two.resume
// NONE-NOT: llvm.mlir.addressof @one.resume

// The ramp returns state 1 (its first continuation), the first
// continuation state 2, the end null.
// CHECK-LABEL: llvm.func @two(
// CHECK: %[[S1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[P1:.*]] = llvm.inttoptr %[[S1]] : i64 to !llvm.ptr
// CHECK: llvm.insertvalue %[[P1]], %{{.*}}[0]
// The dispatch tests state 1 and calls the first continuation; state 2 is
// said to LLVM (an llvm.assume) and calls the second.
// CHECK-LABEL: llvm.func @drive_two(
// CHECK: %[[T1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[Q1:.*]] = llvm.inttoptr %[[T1]] : i64 to !llvm.ptr
// CHECK-NEXT: llvm.icmp "eq" %arg1, %[[Q1]] : !llvm.ptr
// CHECK: llvm.call @two.resume.0(
// CHECK: %[[T2:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[Q2:.*]] = llvm.inttoptr %[[T2]] : i64 to !llvm.ptr
// CHECK-NEXT: %[[IS2:.*]] = llvm.icmp "eq" %arg1, %[[Q2]] : !llvm.ptr
// CHECK-NEXT: llvm.intr.assume %[[IS2]]
// CHECK: llvm.call @two.resume.1(
// CHECK-LABEL: llvm.func internal @two.resume.0(
// CHECK: %[[S2:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[P2:.*]] = llvm.inttoptr %[[S2]] : i64 to !llvm.ptr
// CHECK-NEXT: llvm.br ^{{.*}}(%[[P2]], 
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @use(i64)
llvm.func @two.proto(!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
llvm.func @two(%buf: !llvm.ptr, %a: i64, %b: i64) -> !llvm.struct<(ptr, i64)> attributes {coro.continuation_state, passthrough = ["presplitcoroutine"]} {
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
  llvm.return
}

// @five has five continuations: past four, a marked call stays indirect on
// the host, so it calls continuations by their addresses, and the state
// stays those addresses (the mark is dropped all the same).
// FIVE-LABEL: llvm.func @five(
// FIVE: llvm.mlir.addressof @five.resume.0
// FIVE-LABEL: llvm.func @drive_five(
// FIVE-NOT: inttoptr
// FIVE: llvm.call %arg1(%arg0, %{{.*}}) : !llvm.ptr, (!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
// FIVE-LABEL: llvm.func internal @five.resume.0(
// FIVE: llvm.mlir.addressof @five.resume.1
llvm.func @five.proto(!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
llvm.func @five(%buf: !llvm.ptr, %a: i64) -> !llvm.struct<(ptr, i64)> attributes {coro.continuation_state, passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %proto = llvm.mlir.addressof @five.proto : !llvm.ptr
  %alloc = llvm.mlir.addressof @malloc : !llvm.ptr
  %free = llvm.mlir.addressof @free : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c16, %c8, %buf, %proto, %alloc, %free) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %a1 = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%a) : (i64) -> i1
  llvm.cond_br %a1, ^end, ^s2
^s2:
  %a2 = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%a) : (i64) -> i1
  llvm.cond_br %a2, ^end, ^s3
^s3:
  %a3 = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%a) : (i64) -> i1
  llvm.cond_br %a3, ^end, ^s4
^s4:
  %a4 = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%a) : (i64) -> i1
  llvm.cond_br %a4, ^end, ^s5
^s5:
  %a5 = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%a) : (i64) -> i1
  llvm.br ^end
^end:
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}
llvm.func @drive_five(%buf: !llvm.ptr, %k: !llvm.ptr) {
  %false = llvm.mlir.constant(false) : i1
  %r = llvm.call %k(%buf, %false) {coro.continuation_of = @five} : !llvm.ptr, (!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
  %v = llvm.extractvalue %r[1] : !llvm.struct<(ptr, i64)>
  llvm.call @use(%v) : (i64) -> ()
  llvm.return
}
