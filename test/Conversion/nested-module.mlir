// RUN: coro-opt %s --coro-lower-switch | FileCheck %s --check-prefix=SWITCH
// RUN: coro-opt %s --coro-lower-switch --coro-split | FileCheck %s --check-prefix=SPLIT
// RUN: sed 's/"switch"/"retcon"/' %s | coro-opt --coro-lower-retcon | FileCheck %s --check-prefix=OTHER
// RUN: sed 's/"switch"/"async"/' %s | coro-opt --coro-lower-async | FileCheck %s --check-prefix=OTHER

// A coroutine in a nested module: the helpers and declarations its
// lowering needs go into that module (its own symbol table), and
// --coro-split splits it there.
// SWITCH: module @inner {
// SWITCH-DAG: llvm.func @malloc(
// SWITCH-DAG: llvm.func @gen() -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]}
// SWITCH-DAG: llvm.func internal @__coro_switch_final(
// SPLIT: module @inner {
// SPLIT-NOT: presplitcoroutine
// SPLIT: llvm.func internal fastcc @gen.resume(
// OTHER: module @inner {
// OTHER: llvm.func @gen(
module @outer {
  module @inner {
    func.func @gen() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
      %h = "coro.begin"() : () -> !coro.handle<i32>
      %c1 = arith.constant 1 : i32
      %d = "coro.yield"(%c1) : (i32) -> i1
      "coro.end"(%h) : (!coro.handle<i32>) -> ()
      return %h : !coro.handle<i32>
    }
  }
}
