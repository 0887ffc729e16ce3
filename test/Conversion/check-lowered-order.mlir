// RUN: not coro-opt %s --coro-check-lowered -o /dev/null 2> %t.threads
// RUN: not coro-opt %s --coro-check-lowered --mlir-disable-threading -o /dev/null 2> %t.one
// RUN: diff %t.threads %t.one
// RUN: FileCheck %s < %t.threads

// coro-check-lowered checks each function on its own, the functions at
// once on MLIR's threads: its errors come in the functions' order, each
// function's unlowered coroutine or coro op before its hand-written
// intrinsics, the same with one thread.

// CHECK: check-lowered-order.mlir:[[# @LINE + 7]]:8: error: 'llvm.coro.suspend' belongs in a coroutine
// CHECK: check-lowered-order.mlir:[[# @LINE + 9]]:1: error: this retcon coroutine was left unlowered
// CHECK: check-lowered-order.mlir:[[# @LINE + 15]]:3: error: 'coro.resume' op was left unlowered
// CHECK: check-lowered-order.mlir:[[# @LINE + 20]]:8: error: 'llvm.coro.suspend' belongs in a coroutine
llvm.func @first() -> i8 {
  %none = llvm.mlir.none : !llvm.token
  %f = llvm.mlir.constant(false) : i1
  %s = llvm.intr.coro.suspend %none, %f : i8
  llvm.return %s : i8
}
func.func @second(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
func.func @third(%h: !coro.handle<i64>) {
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  return
}
llvm.func @fourth() -> i8 {
  %none = llvm.mlir.none : !llvm.token
  %f = llvm.mlir.constant(true) : i1
  %s = llvm.intr.coro.suspend %none, %f : i8
  llvm.return %s : i8
}
