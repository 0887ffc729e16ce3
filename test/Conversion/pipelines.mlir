// RUN: coro-opt %s --coro-lower | FileCheck %s
// RUN: not coro-opt %s --coro-lower-switch 2>&1 | FileCheck %s --check-prefix=SWITCH
// RUN: not coro-opt %s --coro-lower-retcon 2>&1 | FileCheck %s --check-prefix=RETCON
// RUN: coro-opt --help | FileCheck %s --check-prefix=HELP

// --coro-lower lowers a module that mixes ABIs in one run; a per-ABI
// pipeline run on it reports each coroutine it leaves instead of printing
// output that still holds coro ops. The consumer ops outside coroutines
// lower under any ABI's pipeline (every handle has the same header).
// CHECK-NOT: "coro.
// CHECK-NOT: coro.abi
// CHECK: llvm.func @gen(
// CHECK-NOT: "coro.
// SWITCH: pipelines.mlir:[[# @LINE + 14]]:1: error: this retcon coroutine was left unlowered: --coro-lower-retcon lowers its ABI, --coro-lower lowers every ABI
// SWITCH-NOT: switch coroutine was left
// RETCON: pipelines.mlir:[[# @LINE + 5]]:1: error: this switch coroutine was left unlowered: --coro-lower-switch lowers its ABI, --coro-lower lowers every ABI
// RETCON-NOT: op was left unlowered
// HELP: --coro-check-lowered
// HELP: --coro-lower-async
// HELP: --coro-lower Verify and lower coroutines of every ABI
func.func @gen() -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %d1 = "coro.yield"(%c1) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
func.func @acc() -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %d, %x = "coro.yield"(%c0) : (i64) -> (i1, i64)
  "coro.end"(%h, %x) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
func.func @main() -> i64 {
  %g = call @gen() : () -> !coro.handle<i64>
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %a = call @acc() : () -> !coro.handle<i64>
  %c5 = arith.constant 5 : i64
  "coro.resume"(%a, %c5) : (!coro.handle<i64>, i64) -> ()
  %v = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  return %v : i64
}
