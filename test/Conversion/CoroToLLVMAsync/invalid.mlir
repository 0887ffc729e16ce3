// RUN: not coro-opt %s --split-input-file --convert-coro-to-llvm-async 2>&1 | FileCheck %s

// An async task outlives the call that creates it: no "elide".
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: the async ABI supports coro.alloc = "heap" (tasks from coro's runtime, coro_rt_task_alloc) or coro.alloc_fn/coro.free_fn
func.func @elide() -> !coro.handle<none> attributes {coro.abi = "async", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @gen() -> !coro.handle<none> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: the async lowering of this coroutine needs the symbol 'gen.coro.fp', which is already taken
llvm.mlir.global internal @gen.coro.fp(0 : i64) : i64

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: values of type tensor<4xf32> cannot be published by an async coroutine
func.func @tensor(%t: tensor<4xf32>) -> !coro.handle<tensor<4xf32>> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<tensor<4xf32>>
  "coro.end"(%h, %t) : (!coro.handle<tensor<4xf32>>, tensor<4xf32>) -> ()
  return %h : !coro.handle<tensor<4xf32>>
}

// -----

// Arguments live in the context.
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: an argument of this async coroutine has a type its context cannot hold
func.func @targ(%t: tensor<4xf32>) -> !coro.handle<none> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// No value travels on resume under the async ABI: to an async coroutine's
// own handle, the verifier says so. (To a handle of unknown origin, the
// value goes to the shared control prefix's resume slot, where a retcon
// coroutine reads it: test/Conversion/resume-value-any-origin.mlir.)
func.func @gen() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 1 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
func.func @resume_value(%v: i64) {
  %t = func.call @gen() : () -> !coro.handle<i64>
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'coro.resume' op passes a value, but the coroutine it resumes is not a retcon coroutine
  "coro.resume"(%t, %v) : (!coro.handle<i64>, i64) -> ()
  return
}

// -----

// A cf.assert ends an async task in error by branching to its end: the
// body must be in CFG form when the conversion runs alone.
func.func @nested_assert(%c: i1, %x: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  scf.if %c {
    %z = arith.constant 0 : i64
    %ok = arith.cmpi ne, %x, %z : i64
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: cf.assert in an async coroutine ends the task in error, which needs the body in CFG form here; run --convert-scf-to-cf first, or use --coro-lower-async
    cf.assert %ok, "nested"
  }
  "coro.end"(%h, %x) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
