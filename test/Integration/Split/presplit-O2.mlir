// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=VALUES
// RUN: coro-opt --coro-lower-switch %s | sed 's/llvm.func @range(/llvm.func internal @range(/' > %t.mlir
// RUN: coro-translate %t.mlir --route=mlir-split --emit=split-llvm -O2 > %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: not grep -F '$coro.' %t.ll
// RUN: coro-translate %s --route=mlir-split -O2 --emit=llvm --remarks-filter=coro-split -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not coro-translate --route=llvm %s --emit=llvm --remarks-filter='(' 2>&1 | FileCheck %s --check-prefix=BADRE
// coro-translate shows the split's remarks too, at the coroutine: LLVM IR
// carries no locations, and each function gets its own back after the
// trip.
// REMARK: presplit-O2.mlir:[[@LINE+25]]:1: remark: Split 'range' (frame_size=
// BADRE: coro-translate: error: --remarks-filter: invalid remark category regular expression '(': parentheses not balanced

// Route B at -O2: LLVM's pre-split simplification runs on the lowered
// module before coro's split, as LLVM's pipeline runs it before its
// CoroSplit (a round trip through LLVM IR, capi/presplit.c). What LLVM IR
// cannot carry comes back: here coro-elide's mark on the call in @sum,
// also when the coroutine has internal linkage (the second input: all its
// calls name a marker declaration during the trip, so it is kept external
// then, and internal again after; otherwise LLVM drops it as unused and
// the calls put back name nothing), and no marker is left. The program
// computes the same as at -O0; @sum's frame is on its stack, and once the
// parts are inlined nothing is left of the coroutine in it.
// CHECK-LABEL: define i64 @sum(
// CHECK-NOT: @malloc
// CHECK-NOT: call
// CHECK: ret i64
// VALUES: 0
// VALUES-NEXT: 11
// VALUES-NEXT: 32
// VALUES-NEXT: 63
// VALUES-NEXT: 104
// VALUES-NEXT: 155
// VALUES-NEXT: 216
// VALUES-NEXT: 287
func.func @range(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %destroyed = "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.cond_br %destroyed, ^done, ^loop(%next : i64)
^done:
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// The sum and count for n, as the CPU computes it too (@main below).
func.func @sum(%n: i64) -> i64 {
  %g = call @range(%n) : (i64) -> !coro.handle<i64>
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %true = arith.constant true
  %r:2 = scf.while (%acc = %zero, %k = %zero) : (i64, i64) -> (i64, i64) {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc, %k : i64, i64
  } do {
  ^bb0(%acc: i64, %k: i64):
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %s = arith.addi %acc, %v : i64
    %k1 = arith.addi %k, %one : i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield %s, %k1 : i64, i64
  }
  %final = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %c10 = arith.constant 10 : i64
  %t = arith.addi %r#0, %final : i64
  %t10 = arith.muli %t, %c10 : i64
  %res = arith.addi %t10, %r#1 : i64
  return %res : i64
}

func.func @main() -> (i64, i64, i64, i64, i64, i64, i64, i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  %c6 = arith.constant 6 : i64
  %c7 = arith.constant 7 : i64
  %s0 = call @sum(%c0) : (i64) -> i64
  %s1 = call @sum(%c1) : (i64) -> i64
  %s2 = call @sum(%c2) : (i64) -> i64
  %s3 = call @sum(%c3) : (i64) -> i64
  %s4 = call @sum(%c4) : (i64) -> i64
  %s5 = call @sum(%c5) : (i64) -> i64
  %s6 = call @sum(%c6) : (i64) -> i64
  %s7 = call @sum(%c7) : (i64) -> i64
  return %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7 : i64, i64, i64, i64, i64, i64, i64, i64
}
