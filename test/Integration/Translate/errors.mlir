// RUN: not coro-translate --route=llvm %s 2>&1 | FileCheck %s --check-prefix=NOEMIT
// RUN: not coro-translate --route=llvm %s --emit=wasm 2>&1 | FileCheck %s --check-prefix=BADEMIT
// RUN: not coro-translate %s --emit=ptx 2>&1 | FileCheck %s --check-prefix=LOWER
// RUN: not coro-translate %s --emit=ptx --mcpu=gfx90a 2>&1 | FileCheck %s --check-prefix=BADCPU
// RUN: not coro-translate --route=llvm %s --emit=llvm 2>&1 | FileCheck %s --check-prefix=LOWER
// RUN: not coro-translate %s --emit=llvm --route=mlir-split 2>&1 | FileCheck %s --check-prefix=LOWER

// NOEMIT: coro-translate: error: --emit=llvm|split-llvm|obj|ptx is required
// BADEMIT: coro-translate: error: unsupported --emit value 'wasm'
// BADCPU: coro-translate: error: unknown GPU architecture 'gfx90a' (expected sm_NN, e.g. sm_90)

// A lowering error is located in the input.
// LOWER: errors.mlir:[[# @LINE + 1]]:1: error: values of type tensor<2xi32> cannot be published by a switch coroutine
func.func @bad(%t: tensor<2xi32>) -> !coro.handle<tensor<2xi32>> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<tensor<2xi32>>
  "coro.end"(%h, %t) : (!coro.handle<tensor<2xi32>>, tensor<2xi32>) -> ()
  return %h : !coro.handle<tensor<2xi32>>
}
