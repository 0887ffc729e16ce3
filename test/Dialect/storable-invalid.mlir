// RUN: coro-opt %s --split-input-file --verify-diagnostics
// Values a coroutine stores (published values, values passed on resume,
// awaited results, an async coroutine's arguments) must have a storable
// type (docs/dialect.md, "Storable types"); anything else is an error at
// the op or coroutine that would store it, before any conversion runs.

// A vector of more than 2^31 bytes (the layout once looped forever).
func.func @peek(%h: !coro.handle<vector<268435457xi64>>) {
  // expected-error@+1 {{'coro.promise' op reads values of type vector<268435457xi64>, which a coroutine cannot store}}
  %v = "coro.promise"(%h) : (!coro.handle<vector<268435457xi64>>) -> vector<268435457xi64>
  return
}

// -----

// expected-error@+1 {{an argument of this async coroutine has a type its context cannot hold (!llvm.target<"spirv.Image">)}}
func.func @arg(%x: !llvm.target<"spirv.Image">) -> !coro.handle<none> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// expected-error@+1 {{values of type !llvm.x86_amx cannot be published by an async coroutine; a coroutine can store index, signless integers}}
func.func @amx() -> !coro.handle<!llvm.x86_amx> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<!llvm.x86_amx>
  "coro.end"(%h) : (!coro.handle<!llvm.x86_amx>) -> ()
  return %h : !coro.handle<!llvm.x86_amx>
}

// -----

// expected-error@+1 {{values of type !llvm.struct<"op", opaque> cannot be published by an async coroutine}}
func.func @opaque() -> !coro.handle<!llvm.struct<"op", opaque>> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<!llvm.struct<"op", opaque>>
  "coro.end"(%h) : (!coro.handle<!llvm.struct<"op", opaque>>) -> ()
  return %h : !coro.handle<!llvm.struct<"op", opaque>>
}

// -----

// expected-error@+1 {{values of type !llvm.void cannot be published by a switch coroutine}}
func.func @void() -> !coro.handle<!llvm.void> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<!llvm.void>
  "coro.end"(%h) : (!coro.handle<!llvm.void>) -> ()
  return %h : !coro.handle<!llvm.void>
}

// -----

// expected-error@+1 {{values of type vector<2x3xf32> cannot be published by a retcon coroutine}}
func.func @vec2d(%v: vector<2x3xf32>) -> !coro.handle<vector<2x3xf32>> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<vector<2x3xf32>>
  %d = "coro.yield"(%v) : (vector<2x3xf32>) -> i1
  "coro.end"(%h) : (!coro.handle<vector<2x3xf32>>) -> ()
  return %h : !coro.handle<vector<2x3xf32>>
}

// -----

// expected-error@+1 {{values of type f8E4M3FN cannot be published by a switch coroutine}}
func.func @small_float(%v: f8E4M3FN) -> !coro.handle<f8E4M3FN> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f8E4M3FN>
  "coro.end"(%h, %v) : (!coro.handle<f8E4M3FN>, f8E4M3FN) -> ()
  return %h : !coro.handle<f8E4M3FN>
}

// -----

// expected-error@+1 {{the values this coroutine takes on resume have a type the retcon ABIs cannot pass (tensor<4xf32>)}}
func.func @resume_value() -> !coro.handle<i32> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 1 : i32
  %d, %r = "coro.yield"(%c) : (i32) -> (i1, tensor<4xf32>)
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

// -----

func.func @feed(%h: !coro.handle<i32>, %t: tensor<4xf32>) {
  // expected-error@+1 {{'coro.resume' op passes a value of type tensor<4xf32>, which a coroutine cannot store}}
  "coro.resume"(%h, %t) : (!coro.handle<i32>, tensor<4xf32>) -> ()
  return
}

// -----

// An unranked memref made in a retcon or retcon.once coroutine cannot be its
// final value: its descriptor is an alloca of the coroutine, in the frame
// coro.end frees (the consumer read freed memory: a crash on both routes).
// Yielding it is fine (the frame lives until the next resume), and so is
// ending with one the coroutine was given, or under the switch ABI.
func.func @unranked_end(%n: i64) -> !coro.handle<memref<*xi64>> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<memref<*xi64>>
  %m = memref.alloc() : memref<4xi64>
  %u = memref.cast %m : memref<4xi64> to memref<*xi64>
  "coro.yield"(%u) : (memref<*xi64>) -> i1
  // expected-error@+1 {{'coro.end' op cannot publish an unranked memref made in a retcon coroutine: its descriptor lives in the coroutine's frame, which coro.end frees; publish a ranked memref (memref.cast it back), or yield the unranked one}}
  "coro.end"(%h, %u) : (!coro.handle<memref<*xi64>>, memref<*xi64>) -> ()
  return %h : !coro.handle<memref<*xi64>>
}

// -----

func.func @unranked_end_once(%n: i64) -> !coro.handle<memref<*xi64>> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<memref<*xi64>>
  %m = memref.alloc() : memref<4xi64>
  %u = memref.cast %m : memref<4xi64> to memref<*xi64>
  %d = "coro.yield"(%u) : (memref<*xi64>) -> i1
  // expected-error@+1 {{'coro.end' op cannot publish an unranked memref made in a retcon.once coroutine}}
  "coro.end"(%h, %u) : (!coro.handle<memref<*xi64>>, memref<*xi64>) -> ()
  return %h : !coro.handle<memref<*xi64>>
}

// -----

func.func @unranked_given(%u: memref<*xi64>) -> !coro.handle<memref<*xi64>> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<memref<*xi64>>
  "coro.yield"(%u) : (memref<*xi64>) -> i1
  "coro.end"(%h, %u) : (!coro.handle<memref<*xi64>>, memref<*xi64>) -> ()
  return %h : !coro.handle<memref<*xi64>>
}

func.func @unranked_switch(%n: i64) -> !coro.handle<memref<*xi64>> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<memref<*xi64>>
  %m = memref.alloc() : memref<4xi64>
  %u = memref.cast %m : memref<4xi64> to memref<*xi64>
  "coro.end"(%h, %u) : (!coro.handle<memref<*xi64>>, memref<*xi64>) -> ()
  return %h : !coro.handle<memref<*xi64>>
}
