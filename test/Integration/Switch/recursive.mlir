// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// Recursive lazy tasks: fib(n) awaits fib(n-1) and fib(n-2).
// CHECK: 6765
func.func @fib(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"() : () -> i1
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %small = arith.cmpi ult, %n, %c2 : i64
  cf.cond_br %small, ^leaf, ^rec
^leaf:
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^rec:
  %n1 = arith.subi %n, %c1 : i64
  %n2 = arith.subi %n, %c2 : i64
  %a = func.call @fib(%n1) : (i64) -> !coro.handle<i64>
  %b = func.call @fib(%n2) : (i64) -> !coro.handle<i64>
  %x = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  %y = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %s = arith.addi %x, %y : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> i64 {
  %n = arith.constant 20 : i64
  %t = call @fib(%n) : (i64) -> !coro.handle<i64>
  "coro.resume"(%t) : (!coro.handle<i64>) -> ()
  %v = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  return %v : i64
}
