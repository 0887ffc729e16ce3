// Three ABIs in one chain of calls: @top creates @child and passes its
// handle to @mid, a coroutine of a third ABI, which awaits it; @top awaits
// @mid and reads done of @child. Every order of the three ABIs, both
// routes; and one conversion per coro-opt run in two orders, whose output
// (with the casts that bridge the coroutines left for later) runs as is.
// Result: 7 (child) + 10 (mid) + 100 (child done).
// RUN: bash %S/Inputs/abi-orders.sh %s %t | FileCheck %s --check-prefix=ALL
// ALL-COUNT-16: {{^117$}}
// ALL-NOT: {{.}}
// RUN: sed -e "s/ABI1/switch/" -e "s/ABI2/retcon/" -e "s/ABI3/async/" %s > %t.sra.mlir
// RUN: coro-opt %t.sra.mlir --convert-scf-to-cf --convert-coro-to-llvm-async --convert-coro-to-llvm-retcon --convert-coro-to-llvm-switch -o %t.1.mlir
// RUN: coro-run --route=llvm %t.1.mlir | FileCheck %s
// RUN: coro-opt %t.sra.mlir --convert-scf-to-cf --convert-coro-to-llvm-retcon --convert-coro-to-llvm-switch --convert-coro-to-llvm-async -o %t.2.mlir
// RUN: coro-run --route=llvm %t.2.mlir | FileCheck %s
// CHECK: {{^117$}}
func.func @child() -> !coro.handle<i32> attributes {coro.abi = "ABI1"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %d1 = "coro.yield"(%c1) : (i32) -> i1
  "coro.end"(%h, %c7) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @mid(%c: !coro.handle<i32>) -> !coro.handle<i32> attributes {coro.abi = "ABI2"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %r = "coro.await"(%c) : (!coro.handle<i32>) -> i32
  %k = arith.constant 10 : i32
  %s = arith.addi %r, %k : i32
  "coro.end"(%h, %s) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @top() -> !coro.handle<i32> attributes {coro.abi = "ABI3"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = func.call @child() : () -> !coro.handle<i32>
  %m = func.call @mid(%c) : (!coro.handle<i32>) -> !coro.handle<i32>
  %r = "coro.await"(%m) : (!coro.handle<i32>) -> i32
  %d = "coro.done"(%c) : (!coro.handle<i32>) -> i1
  %dx = arith.extui %d : i1 to i32
  %k = arith.constant 100 : i32
  %dk = arith.muli %dx, %k : i32
  %s = arith.addi %r, %dk : i32
  "coro.destroy"(%m) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%c) : (!coro.handle<i32>) -> ()
  "coro.end"(%h, %s) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @main() -> i32 {
  %t = func.call @top() : () -> !coro.handle<i32>
  %n = scf.while (%k = %t) : (!coro.handle<i32>) -> !coro.handle<i32> {
    %d = "coro.done"(%k) : (!coro.handle<i32>) -> i1
    %tr = arith.constant true
    %go = arith.xori %d, %tr : i1
    scf.condition(%go) %k : !coro.handle<i32>
  } do {
  ^bb0(%k: !coro.handle<i32>):
    "coro.resume"(%k) : (!coro.handle<i32>) -> ()
    scf.yield %k : !coro.handle<i32>
  }
  %r = "coro.promise"(%n) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%n) : (!coro.handle<i32>) -> ()
  return %r : i32
}
