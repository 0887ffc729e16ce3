// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// Yields inside scf.for and scf.if (coro-run lowers scf to CFG first): the
// generator yields the odd numbers below n, and main sums them through
// promise/resume until done, then adds the final result (n).
// 1 + 3 + ... + 19 = 100, plus n = 20.
// CHECK: 120
func.func @odds(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %r = arith.remui %i, %c2 : i32
    %odd = arith.cmpi eq, %r, %c1 : i32
    scf.if %odd {
      %d = "coro.yield"(%i) : (i32) -> i1
    }
  }
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @main() -> i32 {
  %n = arith.constant 20 : i32
  %zero = arith.constant 0 : i32
  %true = arith.constant true
  %g = call @odds(%n) : (i32) -> !coro.handle<i32>
  %sum = scf.while (%acc = %zero) : (i32) -> i32 {
    %done = "coro.done"(%g) : (!coro.handle<i32>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i32
  } do {
  ^bb0(%acc: i32):
    %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
    %s = arith.addi %acc, %v : i32
    "coro.resume"(%g) : (!coro.handle<i32>) -> ()
    scf.yield %s : i32
  }
  %final = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  %r = arith.addi %sum, %final : i32
  return %r : i32
}
