// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// A chain of 4,000 tasks whose ABIs alternate over all four (switch,
// retcon, async, retcon.once, switch, ...), each awaiting the next. The
// switch, retcon and async tasks start lazily (a first coro.yield) and pass
// control by tail calls; a retcon.once task cannot start lazily, so it runs
// the task it awaits inside the call that creates it: the chain keeps one
// frame per retcon.once level (1,000 here), as docs/dialect.md (Modules
// that mix ABIs) says and decides. The result is the same as with any
// other order: main resumes the first task once, and reads the depth.
// CHECK: 1000004000
func.func @task_s(%depth: i64, %n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c1 = arith.constant 1 : i64
  %last = arith.cmpi eq, %depth, %n : i64
  cf.cond_br %last, ^leaf, ^inner
^leaf:
  %z = arith.constant 0 : i64
  "coro.end"(%h, %z) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^inner:
  %next = arith.addi %depth, %c1 : i64
  %child = func.call @task_r(%next, %n) : (i64, i64) -> !coro.handle<i64>
  %r = "coro.await"(%child) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%child) : (!coro.handle<i64>) -> ()
  %s = arith.addi %r, %c1 : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
func.func @task_r(%depth: i64, %n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c1 = arith.constant 1 : i64
  %last = arith.cmpi eq, %depth, %n : i64
  cf.cond_br %last, ^leaf, ^inner
^leaf:
  %z = arith.constant 0 : i64
  "coro.end"(%h, %z) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^inner:
  %next = arith.addi %depth, %c1 : i64
  %child = func.call @task_a(%next, %n) : (i64, i64) -> !coro.handle<i64>
  %r = "coro.await"(%child) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%child) : (!coro.handle<i64>) -> ()
  %s = arith.addi %r, %c1 : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
func.func @task_a(%depth: i64, %n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c1 = arith.constant 1 : i64
  %last = arith.cmpi eq, %depth, %n : i64
  cf.cond_br %last, ^leaf, ^inner
^leaf:
  %z = arith.constant 0 : i64
  "coro.end"(%h, %z) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^inner:
  %next = arith.addi %depth, %c1 : i64
  %child = func.call @task_o(%next, %n) : (i64, i64) -> !coro.handle<i64>
  %r = "coro.await"(%child) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%child) : (!coro.handle<i64>) -> ()
  %s = arith.addi %r, %c1 : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
// retcon.once: its one suspension is the await, so it starts at once (no
// first yield) and runs the awaited task inside the call that creates it.
// The chain never ends at one of these (a retcon.once path suspends once).
func.func @task_o(%depth: i64, %n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %next = arith.addi %depth, %c1 : i64
  %child = func.call @task_s(%next, %n) : (i64, i64) -> !coro.handle<i64>
  %r = "coro.await"(%child) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%child) : (!coro.handle<i64>) -> ()
  %s = arith.addi %r, %c1 : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
func.func @main() -> i64 {
  %c0 = arith.constant 0 : i64
  %n = arith.constant 4000 : i64
  %t = func.call @task_s(%c0, %n) : (i64, i64) -> !coro.handle<i64>
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %k = scf.while (%i = %zero) : (i64) -> i64 {
    %d = "coro.done"(%t) : (!coro.handle<i64>) -> i1
    %tr = arith.constant true
    %go = arith.xori %d, %tr : i1
    scf.condition(%go) %i : i64
  } do {
  ^bb0(%i: i64):
    "coro.resume"(%t) : (!coro.handle<i64>) -> ()
    %i1 = arith.addi %i, %one : i64
    scf.yield %i1 : i64
  }
  %r = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  %m = arith.constant 1000000000 : i64
  %km = arith.muli %k, %m : i64
  %out = arith.addi %r, %km : i64
  return %out : i64
}
