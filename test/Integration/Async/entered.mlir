// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s
// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s

// Route B's resume entries run a continuation's entered form
// (test/Transforms/CoroSplit/async-entered.mlir): each way out of it, run
// from a resume entry. @gen yields 0..n-1 and ends with n (park's and
// finish's entered forms); @five has more continuations than the split
// tests, and its entry keeps the slot; @outer, resumed once after its lazy
// start, awaits @inner (await's entered form: the awaited task's end
// transfers back to @outer, which ends, and nothing is left to run) and a
// switch coroutine @sw (await_any's: the switch handle is left for the
// entry to run, and its end resumes @outer through its resume entry).
// main sums what each yields and ends with.
// CHECK: {{^}}15{{$}}
// CHECK-NEXT: {{^}}10{{$}}
// CHECK-NEXT: {{^}}3041{{$}}
func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %d = "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @five() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c0 = arith.constant 0 : i64
  %d1 = "coro.yield"(%c1) : (i64) -> i1
  %d2 = "coro.yield"(%c2) : (i64) -> i1
  %d3 = "coro.yield"(%c3) : (i64) -> i1
  %d4 = "coro.yield"(%c1) : (i64) -> i1
  %d5 = "coro.yield"(%c3) : (i64) -> i1
  "coro.end"(%h, %c0) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @inner() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %v = arith.constant 1000 : i64
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @sw() -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %v = arith.constant 2000 : i64
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @outer() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %i = func.call @inner() : () -> !coro.handle<i64>
  %a = "coro.await"(%i) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%i) : (!coro.handle<i64>) -> ()
  %s = func.call @sw() : () -> !coro.handle<i64>
  %b = "coro.await"(%s) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%s) : (!coro.handle<i64>) -> ()
  %c41 = arith.constant 41 : i64
  %ab = arith.addi %a, %b : i64
  %r = arith.addi %ab, %c41 : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Resumes %g until it is done, summing each value it publishes.
func.func @drain(%g: !coro.handle<i64>) -> i64 {
  %c0 = arith.constant 0 : i64
  %true = arith.constant true
  %sum = scf.while (%acc = %c0) : (i64) -> i64 {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i64
  } do {
  ^bb0(%acc: i64):
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %next = arith.addi %acc, %v : i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield %next : i64
  }
  %last = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %all = arith.addi %sum, %last : i64
  return %all : i64
}

func.func @main() -> (i64, i64, i64) {
  %c5 = arith.constant 5 : i64
  %g = call @gen(%c5) : (i64) -> !coro.handle<i64>
  %a = call @drain(%g) : (!coro.handle<i64>) -> i64
  %f = call @five() : () -> !coro.handle<i64>
  %b = call @drain(%f) : (!coro.handle<i64>) -> i64
  %o = call @outer() : () -> !coro.handle<i64>
  %c = call @drain(%o) : (!coro.handle<i64>) -> i64
  return %a, %b, %c : i64, i64, i64
}
