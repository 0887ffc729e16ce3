// RUN: not coro-opt %s --split-input-file --convert-coro-to-llvm-switch 2>&1 | FileCheck %s

// Suspensions inside scf regions need CFG form first.
// CHECK: invalid.mlir:[[# @LINE + 4]]:10: error: coro.yield inside 'scf.if' cannot be lowered: the coroutine body must be in CFG form here; run --convert-scf-to-cf first, or use --coro-lower-switch
func.func @in_scf(%c: i1) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  scf.if %c {
    %d = "coro.yield"() : () -> i1
  }
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// In affine regions, the conversion names both passes (the named
// pipelines run them).
// CHECK: invalid.mlir:[[# @LINE + 4]]:10: error: coro.yield inside 'affine.for' cannot be lowered: the coroutine body must be in CFG form here; run --lower-affine and --convert-scf-to-cf first, or use --coro-lower-switch
func.func @in_affine() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  affine.for %i = 0 to 2 {
    %d = "coro.yield"() : () -> i1
  }
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' op has coro.alloc_fn without coro.free_fn; give both
func.func @half(%c: i1) -> !coro.handle<none> attributes {coro.abi = "switch", coro.alloc_fn = @a} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func private @a(i64) -> !llvm.ptr

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: values of type tensor<4xf32> cannot be published by a switch coroutine
func.func @tensor(%t: tensor<4xf32>) -> !coro.handle<tensor<4xf32>> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<tensor<4xf32>>
  "coro.end"(%h, %t) : (!coro.handle<tensor<4xf32>>, tensor<4xf32>) -> ()
  return %h : !coro.handle<tensor<4xf32>>
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 6]]:1: error: the coroutine lowering needs a function '@free', but that symbol is something else
func.func @heap() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
llvm.mlir.global internal @free(0 : i32) : i32

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: the switch ABI supports coro.alloc = "heap" or "elide"
func.func @arena() -> !coro.handle<none> attributes {coro.abi = "switch", coro.alloc = "arena"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// The names of the switch lowering's helpers taken by something else (the
// await-suspend wrapper took the global's address, and CoroSplit crashed).
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: the switch lowering needs the symbol '__coro_switch_final' for its own helper, but it is already taken
llvm.mlir.global internal @__coro_switch_final(0 : i32) : i32
func.func @clash(%x: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.end"(%h, %x) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
