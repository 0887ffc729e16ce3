// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split --checked %s | FileCheck %s

// Coroutine handles as the values coroutines publish: a scheduler-like
// generator of every ABI yields the tasks it makes (switch generators of
// n and n + 1), and its consumer drains each task it is given. They were
// refused ("values of type !coro.handle<i64> cannot be published"). The
// sum over the three ABIs is 3 * ((4 + 5) + (4 + 5)) with n = 4: 54.
// CHECK: 54

func.func @leaf(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%n) : (i64) -> i1
  %m = arith.addi %n, %n : i64
  "coro.yield"(%m) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @sw_tasks(%n: i64) -> !coro.handle<!coro.handle<i64>> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<!coro.handle<i64>>
  %t = func.call @leaf(%n) : (i64) -> !coro.handle<i64>
  "coro.yield"(%t) : (!coro.handle<i64>) -> i1
  %c1 = arith.constant 1 : i64
  %n1 = arith.addi %n, %c1 : i64
  %u = func.call @leaf(%n1) : (i64) -> !coro.handle<i64>
  "coro.yield"(%u) : (!coro.handle<i64>) -> i1
  "coro.end"(%h) : (!coro.handle<!coro.handle<i64>>) -> ()
  return %h : !coro.handle<!coro.handle<i64>>
}

func.func @rc_tasks(%n: i64) -> !coro.handle<!coro.handle<i64>> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<!coro.handle<i64>>
  %t = func.call @leaf(%n) : (i64) -> !coro.handle<i64>
  "coro.yield"(%t) : (!coro.handle<i64>) -> i1
  %c1 = arith.constant 1 : i64
  %n1 = arith.addi %n, %c1 : i64
  %u = func.call @leaf(%n1) : (i64) -> !coro.handle<i64>
  "coro.yield"(%u) : (!coro.handle<i64>) -> i1
  "coro.end"(%h) : (!coro.handle<!coro.handle<i64>>) -> ()
  return %h : !coro.handle<!coro.handle<i64>>
}

func.func @as_tasks(%n: i64) -> !coro.handle<!coro.handle<i64>> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<!coro.handle<i64>>
  %t = func.call @leaf(%n) : (i64) -> !coro.handle<i64>
  "coro.yield"(%t) : (!coro.handle<i64>) -> i1
  %c1 = arith.constant 1 : i64
  %n1 = arith.addi %n, %c1 : i64
  %u = func.call @leaf(%n1) : (i64) -> !coro.handle<i64>
  "coro.yield"(%u) : (!coro.handle<i64>) -> i1
  "coro.end"(%h) : (!coro.handle<!coro.handle<i64>>) -> ()
  return %h : !coro.handle<!coro.handle<i64>>
}

// The first value of task t (n) plus, after a resume, the second (2n) is
// 3n; take n only: first value.
func.func @first(%t: !coro.handle<i64>) -> i64 {
  %v = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  return %v : i64
}

// Drains a scheduler: each task's first value, twice over (9 + 9 = 18).
func.func @drain(%s: !coro.handle<!coro.handle<i64>>) -> i64 {
  %t = "coro.promise"(%s) : (!coro.handle<!coro.handle<i64>>) -> !coro.handle<i64>
  %a = func.call @first(%t) : (!coro.handle<i64>) -> i64
  "coro.resume"(%s) : (!coro.handle<!coro.handle<i64>>) -> ()
  %u = "coro.promise"(%s) : (!coro.handle<!coro.handle<i64>>) -> !coro.handle<i64>
  %b = func.call @first(%u) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%s) : (!coro.handle<!coro.handle<i64>>) -> ()
  %s1 = arith.addi %a, %b : i64
  %s2 = arith.addi %s1, %s1 : i64
  return %s2 : i64
}

func.func @main() -> i64 {
  %c4 = arith.constant 4 : i64
  %s = func.call @sw_tasks(%c4) : (i64) -> !coro.handle<!coro.handle<i64>>
  %x = func.call @drain(%s) : (!coro.handle<!coro.handle<i64>>) -> i64
  %r = func.call @rc_tasks(%c4) : (i64) -> !coro.handle<!coro.handle<i64>>
  %y = func.call @drain(%r) : (!coro.handle<!coro.handle<i64>>) -> i64
  %a = func.call @as_tasks(%c4) : (i64) -> !coro.handle<!coro.handle<i64>>
  %z = func.call @drain(%a) : (!coro.handle<!coro.handle<i64>>) -> i64
  %t1 = arith.addi %x, %y : i64
  %t = arith.addi %t1, %z : i64
  return %t : i64
}
