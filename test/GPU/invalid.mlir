// RUN: coro-opt %s --split-input-file --verify-diagnostics --coro-lower-nvvm

// What the device path cannot run is a located error, never device malloc
// or an indirect call in the PTX.

// A handle that escapes: its frame cannot live in its caller.
func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
func.func @make(%n: i64) -> !coro.handle<i64> {
  %g = call @gen(%n) : (i64) -> !coro.handle<i64>
  // expected-error@+1 {{the frame of 'gen' would need device malloc: the handle is returned (the GPU path puts every frame in its caller, or in the thread's arena with coro.alloc = "arena", and never calls device malloc)}}
  return %g : !coro.handle<i64>
}
func.func @kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %c = arith.constant 3 : i64
  %g = call @make(%c) : (i64) -> !coro.handle<i64>
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

// -----

// Recursion: a frame cannot hold itself, and the heap is not an option.
func.func @fib(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %m = arith.subi %n, %c1 : i64
  // expected-error@+1 {{the frame of 'fib' would need device malloc: the frames of recursive coroutines would nest in themselves}}
  %t = call @fib(%m) : (i64) -> !coro.handle<i64>
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// -----

// async needs an executor, which the device has none of.
// expected-error@+1 {{coro.abi = "async" cannot run on the device: its tasks need an executor, which the GPU path has none of}}
func.func @task() -> !coro.handle<none> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// expected-error@+1 {{coro.alloc = "heap" asks for device malloc, which the GPU path never calls}}
func.func @heapy(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc = "heap"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// -----

// expected-error@+1 {{the kernel 'k' cannot be a coroutine itself: call coroutines from it}}
func.func @k() -> !coro.handle<none> attributes {coro.abi = "switch", gpu.kernel} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// A kernel's launch has nowhere to put a result: the PTX of one that
// returned a value was made anyway (and wrong).
// expected-error@+1 {{the kernel 'returns' returns a value, which a kernel cannot (the launch has nowhere to put it): store its results through a pointer argument}}
func.func @returns(%out: !llvm.ptr) -> i64 attributes {gpu.kernel} {
  %c = arith.constant 1 : i64
  llvm.store %c, %out : i64, !llvm.ptr
  return %c : i64
}

// -----

// A retcon control block, like a switch frame, lives in its caller or in
// the arena: a handle that escapes would need device malloc.
func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @make(%n: i64) -> !coro.handle<i64> {
  %g = call @gen(%n) : (i64) -> !coro.handle<i64>
  // expected-error@+1 {{the frame of 'gen' would need device malloc: the handle is returned}}
  return %g : !coro.handle<i64>
}

func.func @kernel(%n: i64) attributes {gpu.kernel} {
  %g = call @make(%n) : (i64) -> !coro.handle<i64>
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

// -----

// On the device a retcon frame lives in its control block's buffer (or,
// for a coroutine with coro.alloc = "arena", in the arena): one
// that does not fit is an error that says how large a buffer it needs.
func.func @big(%m: !llvm.ptr) -> !coro.handle<i64> attributes {coro.abi = "retcon", coro.buffer = array<i64: 8, 8>} {
  // expected-error@+1 {{on the device a retcon frame lives in the coroutine's buffer, and this one (16 bytes, align 8) does not fit it (8, align 8): give the coroutine coro.buffer = array<i64: 16, 8>, or take its frames from the arena (coro.alloc = "arena")}}
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %a = llvm.load %m : !llvm.ptr -> i64
  %p = llvm.getelementptr %m[1] : (!llvm.ptr) -> !llvm.ptr, i64
  %b = llvm.load %p : !llvm.ptr -> i64
  %d = "coro.yield"(%a) : (i64) -> i1
  %s = arith.addi %a, %b : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @kernel(%m: !llvm.ptr) attributes {gpu.kernel} {
  %g = call @big(%m) : (!llvm.ptr) -> !coro.handle<i64>
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

// -----

// The same for a coroutine that asks for the heap.
// expected-error@+1 {{coro.alloc = "heap" asks for device malloc, which the GPU path never calls}}
func.func @heapy(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc = "heap"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @kernel(%n: i64) attributes {gpu.kernel} {
  %g = call @heapy(%n) : (i64) -> !coro.handle<i64>
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

// -----

// On the device the retcon conversion names the control block's size
// NAME_frame_size for the host.
func.func @rg(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  // expected-error@-1 {{'rg_frame_size' is already a symbol of the module: on the device that name is the coroutine's frame size}}
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

llvm.mlir.global external constant @rg_frame_size(0 : i64) : i64

func.func @kernel(%n: i64) attributes {gpu.kernel} {
  %g = call @rg(%n) : (i64) -> !coro.handle<i64>
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

// -----

// f80 and f128 arithmetic: LLVM's NVPTX backend stopped at it with an
// unlocated "unsupported library call operation" (and coro-translate left
// an empty .ptx behind); now an error at each op that computes with them.
func.func @wide(%n: i64) -> !coro.handle<f80> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f80>
  // expected-error@+1 {{'llvm.uitofp' computes with f80, which the NVPTX backend cannot lower (the GPU has no 80-bit floating point): use f64}}
  %x = arith.uitofp %n : i64 to f80
  %r = "coro.yield"(%x) : (f80) -> i1
  "coro.end"(%h) : (!coro.handle<f80>) -> ()
  return %h : !coro.handle<f80>
}

func.func @kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %c = arith.constant 3 : i64
  %g = call @wide(%c) : (i64) -> !coro.handle<f80>
  %v = "coro.promise"(%g) : (!coro.handle<f80>) -> f80
  // expected-error@+1 {{'llvm.fptrunc' computes with f80}}
  %d = arith.truncf %v : f80 to f64
  // expected-error@+1 {{'llvm.fpext' computes with f128, which the NVPTX backend cannot lower (no library for it on the GPU): use f64}}
  %q = arith.extf %d : f64 to f128
  llvm.store %q, %out : f128, !llvm.ptr
  "coro.destroy"(%g) : (!coro.handle<f80>) -> ()
  return
}
