// RUN: coro-opt %s --convert-coro-to-llvm-switch > %t.switch.mlir
// RUN: coro-opt %t.switch.mlir | FileCheck %s --check-prefix=RELOAD
// RUN: coro-opt %t.switch.mlir --convert-coro-to-llvm-retcon | FileCheck %s
// RUN: coro-opt %s --convert-coro-to-llvm-retcon | coro-opt --convert-coro-to-llvm-switch | FileCheck %s

// A conversion's output loads again in every tool (which verify on load):
// a lowered coroutine keeps none of the dialect's coro.* attributes but
// coro.alloc (for --coro-split), so it is no longer a coroutine to the
// verifier. So a module mixing ABIs can be lowered one conversion per run,
// in either order.

// RELOAD-LABEL: func.func @gen
// RELOAD-SAME: attributes {passthrough = ["presplitcoroutine"]}
// RELOAD: func.func @acc
// RELOAD-SAME: coro.abi = "retcon"

// CHECK-NOT: coro.abi
// CHECK-NOT: "coro.
// CHECK-DAG: func.func @gen(
// CHECK-DAG: llvm.intr.coro.id
// CHECK-DAG: func.func private @acc.coro.ramp(
// CHECK-DAG: llvm.coro.id.retcon
// CHECK-DAG: func.func @acc()
// CHECK-NOT: coro.abi
// CHECK-NOT: "coro.
func.func @gen(%x: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %d = "coro.yield"(%x) : (i32) -> i1
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}
func.func @acc() -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %z = arith.constant 0 : i64
  %d, %in = "coro.yield"(%z) : (i64) -> (i1, i64)
  "coro.end"(%h, %in) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
