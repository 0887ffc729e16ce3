// Handles cross ABIs wherever a handle can go: a child's handle is chosen
// by arith.select, returned from a plain helper through scf.if, passed as a
// block argument and as an argument to a parent coroutine that awaits it;
// the parent's handle is driven by a plain helper called through
// func.constant + func.call_indirect; another helper reads done/promise of
// the children. Every (child, parent) pair of ABIs, both routes, -O0 and
// -O2: the types of the handles of a coroutine whose ABI is lowered later
// never disagree with their uses (each conversion retypes the module once
// around the coroutines it leaves).
// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run %s -O2 --route=mlir-split | FileCheck %s
// RUN: env CHILD_ABIS="switch retcon retcon.once async" bash %S/Inputs/abi-pairs.sh %s %t | FileCheck %s --check-prefix=PAIRS
// RUN: env CHILD_ABIS="switch retcon retcon.once async" bash %S/Inputs/abi-pairs.sh %s %t.b --route=mlir-split | FileCheck %s --check-prefix=PAIRS
// The parent's result (1000 + the second child's 20), the resumes it took,
// the second child read once it ended (20), the first one while it has only
// yielded (-1).
// CHECK: 1020
// CHECK-NEXT: 0
// CHECK-NEXT: 20
// CHECK-NEXT: -1
// PAIRS-COUNT-32: {{^[a-z.]+ [a-z.]+ -O[02] 1020 0 20 -1$}}
// PAIRS-NOT: {{.}}
func.func @child(%v: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c1 = arith.constant 1 : i32
  %d = "coro.yield"(%c1) : (i32) -> i1
  "coro.end"(%h, %v) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @parent(%c: !coro.handle<i32>) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %r = "coro.await"(%c) : (!coro.handle<i32>) -> i32
  %k = arith.constant 1000 : i32
  %s = arith.addi %r, %k : i32
  "coro.end"(%h, %s) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
// Returns %a when %first holds, else %b.
func.func @pick(%a: !coro.handle<i32>, %b: !coro.handle<i32>, %first: i1) -> !coro.handle<i32> {
  %r = scf.if %first -> !coro.handle<i32> {
    scf.yield %a : !coro.handle<i32>
  } else {
    scf.yield %b : !coro.handle<i32>
  }
  return %r : !coro.handle<i32>
}
// Resumes %p until it is done; its promise and the number of resumes.
func.func @drive(%p: !coro.handle<i32>) -> (i32, i32) {
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
  return %r, %n : i32, i32
}
// The promise of %c once it is done, else -1.
func.func @inspect(%c: !coro.handle<i32>) -> i32 {
  %d = "coro.done"(%c) : (!coro.handle<i32>) -> i1
  %r = scf.if %d -> i32 {
    %v = "coro.promise"(%c) : (!coro.handle<i32>) -> i32
    scf.yield %v : i32
  } else {
    %m = arith.constant -1 : i32
    scf.yield %m : i32
  }
  return %r : i32
}
func.func @main() -> (i32, i32, i32, i32) {
  %v10 = arith.constant 10 : i32
  %v20 = arith.constant 20 : i32
  %a = func.call @child(%v10) : (i32) -> !coro.handle<i32>
  %b = func.call @child(%v20) : (i32) -> !coro.handle<i32>
  %f = arith.constant false
  %t = arith.constant true
  %sel = arith.select %f, %a, %b : !coro.handle<i32>
  %picked = func.call @pick(%sel, %a, %t) : (!coro.handle<i32>, !coro.handle<i32>, i1) -> !coro.handle<i32>
  cf.br ^run(%picked : !coro.handle<i32>)
^run(%x: !coro.handle<i32>):
  %p = func.call @parent(%x) : (!coro.handle<i32>) -> !coro.handle<i32>
  %drive = func.constant @drive : (!coro.handle<i32>) -> (i32, i32)
  %r, %n = func.call_indirect %drive(%p) : (!coro.handle<i32>) -> (i32, i32)
  %ib = func.call @inspect(%b) : (!coro.handle<i32>) -> i32
  %ia = func.call @inspect(%a) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%p) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%a) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i32>) -> ()
  return %r, %n, %ib, %ia : i32, i32, i32, i32
}
