// coro.await continues only once the awaited coroutine has reached its
// end: the child yields 1 and 2, then ends with 99. Resuming the parent
// while it is suspended in the await drives the child; the parent goes on
// once the child has ended, with its final result. @main counts the resumes
// it takes (1) and returns 100 * resumes + result. Every pair of ABIs
// (child, parent), at -O0 and -O2; retcon.once parents drive the child
// themselves once resumed (they may suspend only once).
// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: bash %S/Inputs/abi-pairs.sh %s %t | FileCheck %s --check-prefix=PAIRS
// CHECK: 199
// PAIRS-COUNT-24: {{^[a-z.]+ [a-z.]+ -O[02] 199$}}
// PAIRS-NOT: {{.}}
func.func @child() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c99 = arith.constant 99 : i32
  %d1 = "coro.yield"(%c1) : (i32) -> i1
  %d2 = "coro.yield"(%c2) : (i32) -> i1
  "coro.end"(%h, %c99) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @parent() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = func.call @child() : () -> !coro.handle<i32>
  %r = "coro.await"(%c) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%c) : (!coro.handle<i32>) -> ()
  "coro.end"(%h, %r) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @main() -> i32 {
  %p = func.call @parent() : () -> !coro.handle<i32>
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %n = scf.while (%k = %zero) : (i32) -> i32 {
    %d = "coro.done"(%p) : (!coro.handle<i32>) -> i1
    %t = arith.constant true
    %go = arith.xori %d, %t : i1
    scf.condition(%go) %k : i32
  } do {
  ^bb0(%k: i32):
    "coro.resume"(%p) : (!coro.handle<i32>) -> ()
    %k1 = arith.addi %k, %one : i32
    scf.yield %k1 : i32
  }
  %r = "coro.promise"(%p) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%p) : (!coro.handle<i32>) -> ()
  %k100 = arith.constant 100 : i32
  %nn = arith.muli %n, %k100 : i32
  %res = arith.addi %nn, %r : i32
  return %res : i32
}
