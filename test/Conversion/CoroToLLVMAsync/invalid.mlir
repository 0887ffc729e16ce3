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

// -----

// An async context holds at most 4 GiB (llvm.coro.id.async and the async
// function pointer record take a 32-bit size): LLVM's lowering truncated a
// larger frame's size and gave the task too little memory (route A) where
// the split of route B stopped at -O0 only. Allocas of a static size are
// counted with the context header and arguments.
func.func @big_alloca(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: this alloca makes the async coroutine's frame larger than 4 GiB, the most llvm.coro.id.async can describe (its size is 32 bits): allocate it on the heap
  %a = llvm.alloca %c1 x !llvm.array<700000000 x i64> : (i64) -> !llvm.ptr
  llvm.store %n, %a : i64, !llvm.ptr
  %d = "coro.yield"(%n) : (i64) -> i1
  %v = llvm.load %a : !llvm.ptr -> i64
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// -----

func.func @many_allocas(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %a = memref.alloca() : memref<300000000xi64>
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: this alloca makes the async coroutine's frame larger than 4 GiB
  %b = memref.alloca() : memref<300000000xi64>
  %c0 = arith.constant 0 : index
  memref.store %n, %a[%c0] : memref<300000000xi64>
  memref.store %n, %b[%c0] : memref<300000000xi64>
  %d = "coro.yield"(%n) : (i64) -> i1
  %v = memref.load %b[%c0] : memref<300000000xi64>
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// -----

// A static shape whose element count passes 2^64 (it wrapped to 0, and
// the alloca was counted as empty).
func.func @wraps(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: this alloca makes the async coroutine's frame larger than 4 GiB
  %a = memref.alloca() : memref<4294967296x4294967296x16xi8>
  %d = "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
