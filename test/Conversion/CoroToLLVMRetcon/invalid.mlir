// RUN: not coro-opt %s --split-input-file --convert-coro-to-llvm-retcon 2>&1 | FileCheck %s

// "arena" is the device's (convert-coro-to-nvvm gives it the arena's
// allocator pair).
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: the retcon ABIs support coro.alloc = "heap", "elide" (or coro.alloc_fn/coro.free_fn), and "arena" on the device
func.func @arena() -> !coro.handle<none> attributes {coro.abi = "retcon", coro.alloc = "arena"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// The buffer sits in the control block, which malloc aligns to 16.
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: coro.buffer needs 0 < SIZE <= 2^30 and ALIGN a power of two of at most 16 (the control block's alignment)
func.func @align32() -> !coro.handle<none> attributes {coro.abi = "retcon", coro.buffer = array<i64: 64, 32>} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// The names the lowering generates must be free.
func.func @gen() -> !coro.handle<none> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: the retcon lowering of this coroutine needs the symbol 'gen.coro.resume', which is already taken
func.func private @gen.coro.resume()

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: values of type tensor<4xf32> cannot be published by a retcon coroutine
func.func @tensor(%t: tensor<4xf32>) -> !coro.handle<tensor<4xf32>> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<tensor<4xf32>>
  "coro.end"(%h, %t) : (!coro.handle<tensor<4xf32>>, tensor<4xf32>) -> ()
  return %h : !coro.handle<tensor<4xf32>>
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: the values this coroutine takes on resume have a type the retcon ABIs cannot pass
func.func @resume_tensor() -> !coro.handle<none> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d, %r = "coro.yield"() : () -> (i1, tensor<2xf32>)
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// A call --coro-elide marked needs NAME.elided and NAME.coro.cleanup.
func.func @eg() -> !coro.handle<none> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: the retcon lowering of this coroutine needs the symbol 'eg.elided', which is already taken
func.func private @eg.elided()
func.func @use() {
  %g = call @eg() {coro.elided = true} : () -> !coro.handle<none>
  "coro.destroy"(%g) : (!coro.handle<none>) -> ()
  return
}
