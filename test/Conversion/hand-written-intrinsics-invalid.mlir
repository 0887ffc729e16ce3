// RUN: coro-opt %s --split-input-file --verify-diagnostics --coro-lower
// RUN: not coro-run --route=llvm %S/hand-written-intrinsics-invalid.mlir 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: not coro-run --route=mlir-split %S/hand-written-intrinsics-invalid.mlir 2>&1 | FileCheck %s --check-prefix=EXEC

// LLVM's coroutine intrinsics written by hand where LLVM's passes would
// abort, crash or misread them (route A) and coro's split would stop
// later: located errors where the lowering ends (coro-check-lowered),
// for both routes. A coroutine's own intrinsic outside a coroutine; a
// user's llvm.coro.id in a coro-dialect coroutine, which already has one;
// a promise that is a GEP into an alloca (LLVM took it for no promise and
// coro.promise read whatever was at its place). coro-run, which reads the
// file as one module, reports each and exits non-zero.
// EXEC-DAG: hand-written-intrinsics-invalid.mlir:{{[0-9]+}}:8: error: 'llvm.coro.suspend' belongs in a coroutine
// EXEC-DAG: hand-written-intrinsics-invalid.mlir:{{[0-9]+}}:9: error: 'llvm.coro.id' is a second coroutine id
// EXEC-DAG: hand-written-intrinsics-invalid.mlir:{{[0-9]+}}:9: error: the promise of llvm.coro.id must be

llvm.func @not_a_coroutine() -> i8 {
  %none = llvm.mlir.none : !llvm.token
  %f = llvm.mlir.constant(false) : i1
  // expected-error@+1 {{'llvm.coro.suspend' belongs in a coroutine, and this function is not one (LLVM's coroutine passes take only functions marked presplitcoroutine, whose body holds the coroutine's id, begin, suspensions and end)}}
  %s = llvm.intr.coro.suspend %none, %f : i8
  // expected-error@+1 {{'llvm.coro.size.i64' belongs in a coroutine}}
  %sz = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  llvm.return %s : i8
}
func.func @main() -> i64 {
  %s = llvm.call @not_a_coroutine() : () -> i8
  %r = arith.extsi %s : i8 to i64
  return %r : i64
}

// -----

func.func @own_id(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %null = llvm.mlir.zero : !llvm.ptr
  %z = llvm.mlir.constant(0 : i32) : i32
  // expected-error@+1 {{'llvm.coro.id' is a second coroutine id in this coroutine: a coroutine has one (a coro-dialect coroutine gets its own from the conversion; write a coroutine either in the coro dialect or with LLVM's intrinsics)}}
  %id = llvm.intr.coro.id %z, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// -----

llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @gep_promise(%n: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %pa = llvm.alloca %c1 x !llvm.struct<(i64, i64)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
  %p = llvm.getelementptr %pa[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, i64)>
  %null = llvm.mlir.zero : !llvm.ptr
  %z = llvm.mlir.constant(0 : i32) : i32
  // expected-error@+1 {{the promise of llvm.coro.id must be an llvm.alloca of the coroutine or null}}
  %id = llvm.intr.coro.id %z, %p, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %sz = llvm.intr.coro.size : i64
  %mem = llvm.call @malloc(%sz) : (i64) -> !llvm.ptr
  %h = llvm.intr.coro.begin %id, %mem : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.store %n, %p : i64, !llvm.ptr
  %none = llvm.mlir.none : !llvm.token
  %f = llvm.mlir.constant(false) : i1
  %s = llvm.intr.coro.suspend %none, %f : i8
  llvm.switch %s : i8, ^sus [0: ^cleanup, 1: ^cleanup]
^cleanup:
  %mem2 = llvm.intr.coro.free %id, %h : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%mem2) : (!llvm.ptr) -> ()
  llvm.br ^sus
^sus:
  %t = llvm.mlir.constant(false) : i1
  llvm.intr.coro.end %h, %t, %none : (!llvm.ptr, i1, !llvm.token) -> !llvm.token
  llvm.return %h : !llvm.ptr
}
