// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=VALUES
// RUN: coro-translate %s --route=mlir-split -O2 --emit=llvm | FileCheck %s
// RUN: coro-translate %s --route=mlir-split -O2 --emit=llvm | FileCheck %s --check-prefix=RETCON

// What route B's pre-split trip at -O2 (capi/presplit.c) leaves out
// besides functions that name no coroutine: --emit=llvm shows the module
// after the split, before LLVM's pipeline, so a function the trip saw has
// its helpers inlined and its addresses folded, one it left out has not.
//
// A function that names a coroutine but can reach no coroutine intrinsic
// (@make returns the handle it gets; @sum resumes it) gets nothing the
// split uses from the trip: @twice stays called in @make. (A consumer
// that names the coroutine and resumes its handle is simplified:
// presplit-left-out-O2.mlir.)
// CHECK-LABEL: define ptr @make(
// CHECK-NEXT: call i64 @twice(
// CHECK: ret ptr
//
// The retcon conversion's handle maker (@rgen) and entries call the ramp
// and the continuations themselves; the ramp returns a continuation, not a
// handle, so the trip takes the ramp alone (and its allocator): the
// resume entry still reaches the control block's fields by the struct's
// type, as the conversion wrote it, where LLVM would have folded the GEPs
// to byte offsets.
// RETCON-LABEL: define internal fastcc void @rgen.coro.resume(
// RETCON-NEXT: getelementptr { ptr, ptr, { ptr, i64 }, ptr, i8, [4 x i64] }, ptr %0, i32 0, i32 3
// VALUES: 56
// VALUES-NEXT: 20

func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @twice(%x: i64) -> i64 {
  %r = arith.addi %x, %x : i64
  return %r : i64
}

func.func @make(%n: i64) -> !coro.handle<i64> {
  %m = func.call @twice(%n) : (i64) -> i64
  %h = func.call @gen(%m) : (i64) -> !coro.handle<i64>
  return %h : !coro.handle<i64>
}

func.func @sum(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %h = func.call @make(%n) : (i64) -> !coro.handle<i64>
  cf.br ^l(%c0 : i64)
^l(%s: i64):
  %d = "coro.done"(%h) : (!coro.handle<i64>) -> i1
  cf.cond_br %d, ^e, ^r
^r:
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  %w = func.call @twice(%v) : (i64) -> i64
  %t = arith.addi %s, %w : i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  cf.br ^l(%t : i64)
^e:
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  return %s : i64
}

func.func @rgen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %x = arith.addi %i, %i : i64
  "coro.yield"(%x) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @rsum(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %h = func.call @rgen(%n) : (i64) -> !coro.handle<i64>
  cf.br ^l(%c0 : i64)
^l(%s: i64):
  %d = "coro.done"(%h) : (!coro.handle<i64>) -> i1
  cf.cond_br %d, ^e, ^r
^r:
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  %t = arith.addi %s, %v : i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  cf.br ^l(%t : i64)
^e:
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  return %s : i64
}

func.func @main() -> (i64, i64) {
  %n = arith.constant 4 : i64
  %five = arith.constant 5 : i64
  %s = func.call @sum(%n) : (i64) -> i64
  %r = func.call @rsum(%five) : (i64) -> i64
  return %s, %r : i64, i64
}
