// RUN: coro-opt %s --split-input-file --verify-diagnostics
// One case per rule of coro-verify (docs/dialect.md, "Verifier rules").

func.func @outside() {
  // expected-error@+1 {{'coro.begin' op must be inside a coroutine}}
  %h = "coro.begin"() : () -> !coro.handle<none>
  return
}

// -----

func.func @yield_outside() {
  // expected-error@+1 {{'coro.yield' op must be inside a coroutine}}
  %d = "coro.yield"() : () -> i1
  return
}

// -----

func.func @self_outside() -> !coro.handle<none> {
  // expected-error@+1 {{'coro.self' op must be inside a coroutine}}
  %h = "coro.self"() : () -> !coro.handle<none>
  return %h : !coro.handle<none>
}

// -----

func.func @await_outside(%g: !coro.handle<none>) {
  // expected-error@+1 {{'coro.await' op must be inside a coroutine}}
  "coro.await"(%g) : (!coro.handle<none>) -> ()
  return
}

// -----

func.func @end_outside(%g: !coro.handle<none>) {
  // expected-error@+1 {{'coro.end' op must be inside a coroutine}}
  "coro.end"(%g) : (!coro.handle<none>) -> ()
  return
}

// -----

// expected-error@+1 {{'func.func' op is a coroutine without 'coro.begin'}}
func.func @no_begin() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.self"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @two_begins() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{'coro.begin' op is repeated; a coroutine has exactly one}}
  %h2 = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @begin_not_entry() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  cf.br ^bb1
^bb1:
  // expected-error@+1 {{'coro.begin' op must be in the entry block of the coroutine}}
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// expected-error@+1 {{'func.func' op is a coroutine without 'coro.end'}}
func.func @no_end() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  return %h : !coro.handle<none>
}

// -----

func.func @end_then_work() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{'coro.end' op must be followed by 'func.return' of the coroutine's handle}}
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  %c = arith.constant 0 : i32
  return %h : !coro.handle<none>
}

// -----

func.func @end_in_scf(%c: i1) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  scf.if %c {
    // expected-error@+1 {{'coro.end' op must be followed by 'func.return' of the coroutine's handle}}
    "coro.end"(%h) : (!coro.handle<none>) -> ()
  }
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @end_other_handle(%g: !coro.handle<none>) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{'coro.end' op must end the coroutine's own handle}}
  "coro.end"(%g) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// expected-error@+1 {{'func.func' op has an unknown coro.abi}}
func.func @bad_abi() -> !coro.handle<none> attributes {coro.abi = "fiber"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// expected-error@+1 {{'func.func' op has an unknown coro.abi}}
func.func @abi_not_string() -> !coro.handle<none> attributes {coro.abi = 1 : i32} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// expected-error@+1 {{must have exactly one result, of type !coro.handle<T>}}
func.func @bad_result() -> i32 attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %c = arith.constant 0 : i32
  // expected-error@+1 {{'coro.end' op must be followed by 'func.return' of the coroutine's handle}}
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %c : i32
}

// -----

func.func @begin_type() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  // expected-error@+1 {{'coro.begin' op its result has type !coro.handle<i64>, but the coroutine's handle is !coro.handle<i32>}}
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %s = "coro.self"() : () -> !coro.handle<i32>
  "coro.end"(%s) : (!coro.handle<i32>) -> ()
  return %s : !coro.handle<i32>
}

// -----

func.func @self_type() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  // expected-error@+1 {{'coro.self' op its result has type !coro.handle<f32>}}
  %s = "coro.self"() : () -> !coro.handle<f32>
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

// -----

func.func @yield_type(%x: i64) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  // expected-error@+1 {{'coro.yield' op publishes i64, but the coroutine's handle publishes i32}}
  %d = "coro.yield"(%x) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

// -----

func.func @yield_into_none(%x: i32) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{'coro.yield' op publishes a value, but the coroutine's handle is !coro.handle<none>}}
  %d = "coro.yield"(%x) : (i32) -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @end_type(%x: f32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  // expected-error@+1 {{'coro.end' op publishes f32, but the coroutine's handle publishes i32}}
  "coro.end"(%h, %x) : (!coro.handle<i32>, f32) -> ()
  return %h : !coro.handle<i32>
}

// -----

func.func @promise_type(%g: !coro.handle<i32>) -> i64 {
  // expected-error@+1 {{'coro.promise' op result has type i64, but the handle publishes i32}}
  %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i64
  return %v : i64
}

// -----

func.func @promise_none(%g: !coro.handle<none>) -> i32 {
  // expected-error@+1 {{'coro.promise' op reads a handle that publishes nothing}}
  %v = "coro.promise"(%g) : (!coro.handle<none>) -> i32
  return %v : i32
}

// -----

func.func @await_type(%g: !coro.handle<i32>) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{'coro.await' op result has type f64, but the awaited handle publishes i32}}
  %v = "coro.await"(%g) : (!coro.handle<i32>) -> f64
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @await_none(%g: !coro.handle<none>) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{'coro.await' op has a result, but the awaited handle publishes nothing}}
  %v = "coro.await"(%g) : (!coro.handle<none>) -> i32
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// The dialect definition itself (IRDL) constrains coro.noop's type.
func.func @noop_type() {
  // expected-error@+2 {{expected 'none' but got 'i32'}}
  // expected-note@+1 {{see current operation}}
  %n = "coro.noop"() : () -> !coro.handle<i32>
  return
}

// -----

func.func @resume_value_switch() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{'coro.yield' op receives a value on resume, which only the retcon and retcon.once ABIs can express (this coroutine is "switch")}}
  %d, %r = "coro.yield"() : () -> (i1, i32)
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @resume_value_async() -> !coro.handle<none> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{only the retcon and retcon.once ABIs can express (this coroutine is "async")}}
  %d, %r = "coro.yield"() : () -> (i1, i32)
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @retcon_disagree() -> !coro.handle<none> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d, %r = "coro.yield"() : () -> (i1, i32)
  // expected-error@+1 {{'coro.yield' op receives i64 on resume, but an earlier yield of this coroutine receives i32; all yields must agree}}
  %d2, %r2 = "coro.yield"() : () -> (i1, i64)
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @retcon_missing() -> !coro.handle<none> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d, %r = "coro.yield"() : () -> (i1, i32)
  // expected-error@+1 {{'coro.yield' op receives <none> on resume, but an earlier yield of this coroutine receives i32}}
  %d2 = "coro.yield"() : () -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @acc() -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 0 : i64
  %d, %r = "coro.yield"(%c) : (i64) -> (i1, i64)
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
func.func @feed() {
  %g = call @acc() : () -> !coro.handle<i64>
  %x = arith.constant 1 : i32
  // expected-error@+1 {{'coro.resume' op passes i32, but the coroutine's yields receive i64}}
  "coro.resume"(%g, %x) : (!coro.handle<i64>, i32) -> ()
  // expected-error@+1 {{'coro.resume' op passes no value, but the coroutine's yields receive i64}}
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  return
}

// -----

func.func @sw() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d = "coro.yield"() : () -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func @feed_switch() {
  %g = call @sw() : () -> !coro.handle<none>
  %x = arith.constant 1 : i32
  // expected-error@+1 {{'coro.resume' op passes a value, but the coroutine it resumes is not a retcon coroutine}}
  "coro.resume"(%g, %x) : (!coro.handle<none>, i32) -> ()
  return
}

// -----

func.func @once_none(%c: i1) -> !coro.handle<none> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  cf.cond_br %c, ^y, ^e
^y:
  %d = "coro.yield"() : () -> i1
  cf.br ^e
^e:
  // expected-error@+1 {{'coro.end' op in a retcon.once coroutine: a path reaches it without suspending}}
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @once_twice() -> !coro.handle<none> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d = "coro.yield"() : () -> i1
  // expected-error@+1 {{'coro.yield' op suspends a second time on some path, but a retcon.once coroutine suspends exactly once}}
  %d2 = "coro.yield"() : () -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @once_scf_if(%c: i1) -> !coro.handle<none> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  scf.if %c {
    %d = "coro.yield"() : () -> i1
  }
  // expected-error@+1 {{a path reaches it without suspending}}
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @once_loop(%n: index) -> !coro.handle<none> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{'coro.yield' op suspends inside a loop, but a retcon.once coroutine suspends exactly once}}
    %d = "coro.yield"() : () -> i1
  }
  // expected-error@+1 {{a path reaches it without suspending}}
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @once_cycle(%c: i1) -> !coro.handle<none> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  cf.br ^loop
^loop:
  // expected-error@+1 {{'coro.yield' op suspends a second time on some path}}
  %d = "coro.yield"() : () -> i1
  cf.cond_br %c, ^loop, ^e
^e:
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @in_parallel(%n: index) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-error@+1 {{'coro.yield' op suspends inside 'scf.parallel', which cannot be split across a suspension}}
    %d = "coro.yield"() : () -> i1
    scf.reduce
  }
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @await_in_execute(%g: !coro.handle<none>) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %m = memref.alloca() : memref<4xf32>
  memref.alloca_scope {
    // expected-error@+1 {{'coro.await' op suspends inside 'memref.alloca_scope', which cannot be split across a suspension}}
    "coro.await"(%g) : (!coro.handle<none>) -> ()
  }
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @dyn_alloca(%n: index) -> !coro.handle<f32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.alloca' op allocates a dynamically sized stack buffer that is live across a suspension (line}}
  %m = memref.alloca(%n) : memref<?xf32>
  %d = "coro.yield"() : () -> i1
  %v = memref.load %m[%c0] : memref<?xf32>
  "coro.end"(%h, %v) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}

// -----

// LLVM's CoroSplit aborts on dynamic allocas in retcon frames too.
func.func @dyn_alloca_retcon(%n: index) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.alloca' op allocates a dynamically sized stack buffer that is live across a suspension (line}}
  %m = memref.alloca(%n) : memref<?xi64>
  %d = "coro.yield"() : () -> i1
  %v = memref.load %m[%c0] : memref<?xi64>
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// -----

func.func @dyn_llvm_alloca(%n: i64) -> !coro.handle<none> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{'llvm.alloca' op allocates a dynamically sized stack buffer that is live across a suspension}}
  %p = llvm.alloca %n x i32 : (i64) -> !llvm.ptr
  %d = "coro.yield"() : () -> i1
  %c = llvm.mlir.constant(1 : i32) : i32
  llvm.store %c, %p : i32, !llvm.ptr
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// The use is through a view, in a later loop iteration.
func.func @dyn_alloca_view(%n: index, %c: i1) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-error@+1 {{'memref.alloca' op allocates a dynamically sized stack buffer that is live across a suspension}}
  %m = memref.alloca(%n) : memref<?xf32>
  %v = memref.cast %m : memref<?xf32> to memref<*xf32>
  %r = memref.cast %v : memref<*xf32> to memref<?xf32>
  cf.br ^loop
^loop:
  memref.store %f, %r[%c0] : memref<?xf32>
  %d = "coro.yield"() : () -> i1
  cf.cond_br %c, ^loop, ^e
^e:
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @token_across() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{'llvm.mlir.none' op defines a token that is used after a suspension (line}}
  %t = llvm.mlir.none : !llvm.token
  %d = "coro.yield"() : () -> i1
  %f = llvm.mlir.constant(false) : i1
  %s = llvm.intr.coro.suspend %t, %f : i8
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// expected-error@+1 {{'func.func' op has an unknown coro.alloc; expected "heap", "elide" or "arena"}}
func.func @bad_alloc() -> !coro.handle<none> attributes {coro.abi = "switch", coro.alloc = "stack"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// expected-error@+1 {{'func.func' op has coro.alloc_fn without coro.free_fn; give both}}
func.func @half_alloc() -> !coro.handle<none> attributes {coro.abi = "switch", coro.alloc_fn = @a} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func private @a(i64) -> !llvm.ptr

// -----

// expected-error@+1 {{'func.func' op has both coro.alloc and coro.alloc_fn/coro.free_fn; give one or the other}}
func.func @both_alloc() -> !coro.handle<none> attributes {coro.abi = "switch", coro.alloc = "heap", coro.alloc_fn = @a, coro.free_fn = @f} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func private @a(i64) -> !llvm.ptr
func.func private @f(!llvm.ptr)

// -----

// expected-error@+1 {{'func.func' op coro.free_fn refers to @g, which is not a function}}
func.func @alloc_not_fn() -> !coro.handle<none> attributes {coro.abi = "switch", coro.alloc_fn = @a, coro.free_fn = @g} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func private @a(i64) -> !llvm.ptr
llvm.mlir.global internal @g(0 : i32) : i32

// -----

// expected-error@+1 {{'func.func' op coro.alloc_fn must be a symbol reference (@name)}}
func.func @alloc_string() -> !coro.handle<none> attributes {coro.abi = "switch", coro.alloc_fn = "a", coro.free_fn = @f} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func private @f(!llvm.ptr)

// -----

// expected-error@+1 {{'func.func' op has coro.buffer, which only the retcon and retcon.once ABIs use}}
func.func @buffer_switch() -> !coro.handle<none> attributes {coro.abi = "switch", coro.buffer = array<i64: 64, 8>} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// expected-error@+1 {{'func.func' op coro.buffer must be array<i64: SIZE, ALIGN>}}
func.func @buffer_shape() -> !coro.handle<none> attributes {coro.abi = "retcon", coro.buffer = array<i64: 64>} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// expected-error@+1 {{'func.func' op coro.buffer needs SIZE > 0 and ALIGN a power of two (got 64, 12)}}
func.func @buffer_align() -> !coro.handle<none> attributes {coro.abi = "retcon", coro.buffer = array<i64: 64, 12>} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @await_self() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %s = "coro.self"() : () -> !coro.handle<i32>
  // expected-error@+1 {{'coro.await' op awaits the coroutine's own handle: it would wait for its own end, which never comes}}
  %r = "coro.await"(%s) : (!coro.handle<i32>) -> i32
  "coro.end"(%h, %r) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// -----

func.func @await_begin() -> !coro.handle<i32> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  // expected-error@+1 {{'coro.await' op awaits the coroutine's own handle}}
  %r = "coro.await"(%h) : (!coro.handle<i32>) -> i32
  "coro.end"(%h, %r) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// -----

func.func @await_noop() -> !coro.handle<none> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %n = "coro.noop"() : () -> !coro.handle<none>
  // expected-error@+1 {{'coro.await' op awaits coro.noop's handle, which never ends: the coroutine could never continue}}
  "coro.await"(%n) : (!coro.handle<none>) -> ()
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// A declaration marked as a retcon.once coroutine: reported as such, and
// the once-rule's dataflow does not run over its empty body (it wrote
// past a zero-size allocation: found by the ASan build).
// expected-error@+2 {{'func.func' op is a coroutine without 'coro.begin'}}
// expected-error@+1 {{'func.func' op is a coroutine without 'coro.end'}}
func.func private @ext() -> !coro.handle<none> attributes {coro.abi = "retcon.once"}

// -----

// A dynamically sized alloca whose address escapes (passed to a call) is
// kept in the frame by LLVM's CoroSplit, after the last suspension too:
// route A cannot lower it.
func.func private @sink(!llvm.ptr)
func.func @dyn_alloca_escapes(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %r = "coro.yield"(%n) : (i64) -> i1
  // expected-error@+1 {{'llvm.alloca' op allocates a dynamically sized stack buffer whose address escapes ('func.call' (line}}
  %a = llvm.alloca %n x i64 : (i64) -> !llvm.ptr
  func.call @sink(%a) : (!llvm.ptr) -> ()
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
