// RUN: coro-opt %s --coro-verify | FileCheck %s
// Valid coroutines of every ABI pass coro-verify unchanged.

// CHECK-LABEL: func.func @gen_cf
func.func @gen_cf(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^loop(%c0 : i32)
^loop(%i: i32):
  %more = arith.cmpi slt, %i, %n : i32
  cf.cond_br %more, ^body, ^done
^body:
  %d = "coro.yield"(%i) : (i32) -> i1
  %next = arith.addi %i, %c1 : i32
  cf.cond_br %d, ^done, ^loop(%next : i32)
^done:
  // CHECK: "coro.end"
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// Yields inside scf.for and scf.if; a static alloca lives across them.
// CHECK-LABEL: func.func @gen_scf
func.func @gen_scf(%n: index, %c: i1) -> !coro.handle<index> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<index>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloca() : memref<4xindex>
  scf.for %i = %c0 to %n step %c1 {
    scf.if %c {
      %d = "coro.yield"(%i) : (index) -> i1
    }
    memref.store %i, %m[%c0] : memref<4xindex>
  }
  %v = memref.load %m[%c0] : memref<4xindex>
  "coro.end"(%h, %v) : (!coro.handle<index>, index) -> ()
  return %h : !coro.handle<index>
}

// A dynamic alloca used only between suspensions is fine.
// CHECK-LABEL: func.func @dyn_local
func.func @dyn_local(%n: index) -> !coro.handle<f32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  %d0 = "coro.yield"() : () -> i1
  %c0 = arith.constant 0 : index
  %f = arith.constant 2.0 : f32
  %m = memref.alloca(%n) : memref<?xf32>
  memref.store %f, %m[%c0] : memref<?xf32>
  %v = memref.load %m[%c0] : memref<?xf32>
  "coro.end"(%h, %v) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}

// CHECK-LABEL: func.func @await_chain
func.func @await_chain(%g: !coro.handle<i32>, %u: !coro.handle<none>) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %v = "coro.await"(%g) : (!coro.handle<i32>) -> i32
  "coro.await"(%u) : (!coro.handle<none>) -> ()
  "coro.await"(%g) : (!coro.handle<i32>) -> ()
  %s = "coro.self"() : () -> !coro.handle<i32>
  "coro.end"(%s, %v) : (!coro.handle<i32>, i32) -> ()
  return %s : !coro.handle<i32>
}

// CHECK-LABEL: func.func @acc
func.func @acc() -> !coro.handle<i64> attributes {coro.abi = "retcon", coro.buffer = array<i64: 64, 16>} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %d, %r = "coro.yield"(%c0) : (i64) -> (i1, i64)
  %d2, %r2 = "coro.yield"(%r) : (i64) -> (i1, i64)
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// CHECK-LABEL: func.func @feed
func.func @feed() {
  %g = call @acc() : () -> !coro.handle<i64>
  %x = arith.constant 5 : i64
  "coro.resume"(%g, %x) : (!coro.handle<i64>, i64) -> ()
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

// One suspension on each branch, in CFG and in scf.if.
// CHECK-LABEL: func.func @once
func.func @once(%c: i1, %x: f32) -> !coro.handle<f32> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  cf.cond_br %c, ^a, ^b
^a:
  %d = "coro.yield"(%x) : (f32) -> i1
  cf.br ^e
^b:
  scf.if %c {
    %d1 = "coro.yield"(%x) : (f32) -> i1
  } else {
    %d2 = "coro.yield"(%x) : (f32) -> i1
  }
  cf.br ^e
^e:
  "coro.end"(%h, %x) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}

// CHECK-LABEL: func.func @task
func.func @task() -> !coro.handle<none> attributes {coro.abi = "async", coro.alloc_fn = @my_alloc, coro.free_fn = @my_free} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d = "coro.yield"() : () -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func private @my_alloc(i64) -> !llvm.ptr
func.func private @my_free(!llvm.ptr)

// Consumer ops work in any function, on any handle.
// CHECK-LABEL: func.func @consume
func.func @consume(%g: !coro.handle<i32>) -> i32 {
  %n = "coro.noop"() : () -> !coro.handle<none>
  "coro.resume"(%n) : (!coro.handle<none>) -> ()
  %done = "coro.done"(%g) : (!coro.handle<i32>) -> i1
  %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return %v : i32
}
