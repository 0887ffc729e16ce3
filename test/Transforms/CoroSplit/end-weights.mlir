// RUN: coro-opt --coro-lower-switch --coro-split %s | FileCheck %s

// The way to a coroutine's end is the unlikely side of a branch: a
// coroutine suspends many times and ends once. A conditional branch whose
// one side can still reach a suspension that is not final and whose other
// side cannot gets weights 2000:1 (those of __builtin_expect), in the ramp
// and in every part, so LLVM lays the suspending side out as the
// fall-through: a generator's resume then jumps nowhere per value, as a
// hand-written state machine's step (docs/route-b.md, Resume cost).
// Weights the input gives are kept.

// @one's loop test: the body (a yield) is the likely side, the end not.
// CHECK-LABEL: llvm.func @one(
// CHECK: llvm.cond_br %{{.*}} weights([2000, 1]), ^[[BODY:[a-z0-9]+]], ^
// CHECK-LABEL: llvm.func @told(
// CHECK: llvm.cond_br %{{.*}} weights([3, 5]), ^
// CHECK-LABEL: llvm.func internal fastcc @one.resume(
// CHECK: llvm.cond_br %{{.*}} weights([2000, 1]), ^
// The final suspension's own branches reach no other suspension: no
// weights there.
// CHECK-NOT: weights
// CHECK-LABEL: llvm.func internal fastcc @one.destroy(
// CHECK-NOT: weights
// CHECK-LABEL: llvm.func internal fastcc @told.resume(
// CHECK: llvm.cond_br %{{.*}} weights([3, 5]), ^
func.func @one(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
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
func.func @told(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more weights([3, 5]), ^body, ^done
^body:
  "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
