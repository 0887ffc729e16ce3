// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=VALUES
// RUN: coro-translate %s --route=mlir-split -O2 --emit=llvm | FileCheck %s

// Route B's pre-split trip at -O2 (capi/presplit.c) simplifies the
// coroutines, the functions that name one and what those call; it leaves
// the others out (their simplification would be done again after the
// split). --emit=llvm shows the module after the split, before LLVM's
// pipeline: @twice is inlined into the consumer @sum, not into @report,
// which the trip left out.
// CHECK-LABEL: define i64 @sum(i64 %0) local_unnamed_addr {
// CHECK-NOT: call i64 @twice
// CHECK: ret i64
// A consumer with nothing to inline or promote is left out too: @first
// has none of the marks the trip's passes give a function they saw
// (local_unnamed_addr, as @sum has).
// CHECK-LABEL: define i64 @first(i64 %0) {
// CHECK-LABEL: define i64 @report(i64 %0) {
// CHECK: call i64 @twice(
// CHECK: ret i64
// A function naming an internal global stays in the trip, which would
// otherwise see the coroutine's loads of @scale and no store, and fold
// them to its initial value (84 would be 12): @main is simplified
// (@sum inlined) and its store seen.
// CHECK-LABEL: define { i64, i64 } @main(
// CHECK-NOT: call i64 @sum(
// CHECK: ret { i64, i64 }
// VALUES: 24
// VALUES-NEXT: 84
llvm.mlir.global internal @scale(1 : i64) : i64

func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %p = llvm.mlir.addressof @scale : !llvm.ptr
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %s = llvm.load %p : !llvm.ptr -> i64
  %v = arith.muli %i, %s : i64
  "coro.yield"(%v) : (i64) -> i1
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

func.func @sum(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %h = func.call @gen(%n) : (i64) -> !coro.handle<i64>
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

func.func @first(%n: i64) -> i64 {
  %h = func.call @gen(%n) : (i64) -> !coro.handle<i64>
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  return %v : i64
}

func.func @report(%x: i64) -> i64 {
  %y = func.call @twice(%x) : (i64) -> i64
  return %y : i64
}

func.func @main() -> (i64, i64) {
  %n = arith.constant 4 : i64
  %s = func.call @sum(%n) : (i64) -> i64
  %f = func.call @first(%n) : (i64) -> i64
  %sf = arith.addi %s, %f : i64
  %r = func.call @report(%sf) : (i64) -> i64
  %seven = arith.constant 7 : i64
  %p = llvm.mlir.addressof @scale : !llvm.ptr
  llvm.store %seven, %p : i64, !llvm.ptr
  %s7 = func.call @sum(%n) : (i64) -> i64
  return %r, %s7 : i64, i64
}
