// RUN: not coro-opt %s 2>&1 | FileCheck %s
// Errors are printed as file:line:col: error: message, and coro-opt exits 1.

// CHECK: verify-format.mlir:[[# @LINE + 1]]:1: error: 'func.func' op is a coroutine without 'coro.begin'
func.func @no_begin() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.self"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
