// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// Route B (coro's own --coro-split) gives the same results:
// RUN: coro-run %s --route=mlir-split | FileCheck %s
// RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s

// One module, two ABIs: coro-run runs every conversion; each lowers its own
// coroutines and the consumer ops on their handles. A switch generator
// yields 1, 2, 3; a retcon accumulator is fed what it yields.
// CHECK: {{^}}6{{$}}
func.func @gen() -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  "coro.yield"(%c1) : (i64) -> i1
  "coro.yield"(%c2) : (i64) -> i1
  "coro.yield"(%c3) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @acc() -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  cf.br ^loop(%c0 : i64)
^loop(%sum: i64):
  %d, %x = "coro.yield"(%sum) : (i64) -> (i1, i64)
  %s2 = arith.addi %sum, %x : i64
  cf.cond_br %d, ^end, ^loop(%s2 : i64)
^end:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> i64 {
  %g = call @gen() : () -> !coro.handle<i64>
  %a = call @acc() : () -> !coro.handle<i64>
  %true = arith.constant true
  scf.while : () -> () {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go)
  } do {
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    "coro.resume"(%a, %v) : (!coro.handle<i64>, i64) -> ()
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield
  }
  %sum = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %sum : i64
}
