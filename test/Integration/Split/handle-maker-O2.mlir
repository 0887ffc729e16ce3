// RUN: coro-translate %s --route=mlir-split --emit=split-llvm -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=OUT

// Route B at -O2 runs LLVM's pre-split simplification first (a round trip
// through LLVM IR, capi/presplit.c). The function that makes a retcon
// handle (@gen, or @gen.elided when --coro-elide puts the control block
// in the caller) is not inlined during that trip: --coro-split
// then sees where the handle comes from and calls @gen.coro.resume
// directly, and LLVM inlines everything afterwards. Inlined before the
// split, the handle was a pointer of unknown origin, resumed through its
// header on every value.
// OUT: {{^}}45{{$}}

// The retcon generator drained where it is made: its control block is on
// the stack, its resume and its ramp (--coro-split takes off the noinline
// the conversion gave the ramp for route A) inlined, so that @main folds
// to its result: no call is left (a resume through the header, which the
// split could not make direct, would stay).
// CHECK-LABEL: define i64 @main(
// CHECK-NOT: call
// CHECK: ret i64 45
// CHECK-NEXT: }
func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
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

func.func @main() -> i64 {
  %c10 = arith.constant 10 : i64
  %c0 = arith.constant 0 : i64
  %true = arith.constant true
  %g = call @gen(%c10) : (i64) -> !coro.handle<i64>
  %r = scf.while (%acc = %c0) : (i64) -> i64 {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i64
  } do {
  ^bb0(%acc: i64):
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %acc2 = arith.addi %acc, %v : i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield %acc2 : i64
  }
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %r : i64
}
