// RUN: coro-opt %s --split-input-file --verify-diagnostics

// The error examples of docs/dialect.md ("Verifier rules"), one case per
// rule, with the exact message the verifier prints. The page and this test
// hold the same examples.

// coroutine-side op outside a coroutine
func.func @plain() {
// expected-error@+1 {{'coro.yield' op must be inside a coroutine (a func.func with coro.abi)}}
  %d = "coro.yield"() : () -> i1
  return
}

// -----

// missing `coro.begin`
// expected-error@+1 {{'func.func' op is a coroutine without 'coro.begin'}}
func.func @no_begin() -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.self"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// repeated `coro.begin`
func.func @two_begins() -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
// expected-error@+1 {{'coro.begin' op is repeated; a coroutine has exactly one}}
  %h2 = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// `coro.begin` outside the entry block
func.func @late_begin() -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  cf.br ^next
^next:
// expected-error@+1 {{'coro.begin' op must be in the entry block of the coroutine}}
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// missing `coro.end`
// expected-error@+1 {{'func.func' op is a coroutine without 'coro.end'}}
func.func @no_end() -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  return %h : !coro.handle<none>
}

// -----

// `coro.end` of another handle than the coroutine's own
func.func @end_other(%g: !coro.handle<none>) -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
// expected-error@+1 {{'coro.end' op must end the coroutine's own handle (the result of coro.begin or coro.self)}}
  "coro.end"(%g) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// `coro.end` not followed by `return` of the handle
func.func @end_then_work() -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
// expected-error@+1 {{'coro.end' op must be followed by 'func.return' of the coroutine's handle}}
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  %c = arith.constant 0 : i32
  return %h : !coro.handle<none>
}

// -----

// unknown `coro.abi`
// expected-error@+1 {{'func.func' op has an unknown coro.abi; expected one of "switch", "retcon", "retcon.once", "async"}}
func.func @fiber() -> !coro.handle<none>
    attributes {coro.abi = "fiber"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// coroutine result not a single handle
// expected-error@+3 {{'func.func' op is a coroutine, so it must have exactly one result, of type !coro.handle<T>}}
// expected-error@+2 {{'func.func' op is a coroutine without 'coro.begin'}}
// expected-error@+1 {{'func.func' op is a coroutine without 'coro.end'}}
func.func @returns_int() -> i32
    attributes {coro.abi = "switch"} {
  %c = arith.constant 0 : i32
  return %c : i32
}

// -----

// `coro.yield` publishes a value of another type than `T`
func.func @yield_type(%x: f32) -> !coro.handle<i32>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
// expected-error@+1 {{'coro.yield' op publishes f32, but the coroutine's handle publishes i32}}
  %d = "coro.yield"(%x) : (f32) -> i1
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

// -----

// `coro.end` final result of another type than `T`
func.func @end_type(%x: f32) -> !coro.handle<i32>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
// expected-error@+1 {{'coro.end' op publishes f32, but the coroutine's handle publishes i32}}
  "coro.end"(%h, %x) : (!coro.handle<i32>, f32) -> ()
  return %h : !coro.handle<i32>
}

// -----

// `coro.await` result of another type than the awaited handle's `U`
func.func @await_type(%g: !coro.handle<i32>) -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
// expected-error@+1 {{'coro.await' op result has type i64, but the awaited handle publishes i32}}
  %r = "coro.await"(%g) : (!coro.handle<i32>) -> i64
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// `coro.yield` publishes a value in a coroutine of `!coro.handle<none>`
func.func @yield_none(%x: i32) -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
// expected-error@+1 {{'coro.yield' op publishes a value, but the coroutine's handle is !coro.handle<none>}}
  %d = "coro.yield"(%x) : (i32) -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// `coro.await` with a result on a handle that publishes nothing
func.func @await_none(%g: !coro.handle<none>) -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
// expected-error@+1 {{'coro.await' op has a result, but the awaited handle publishes nothing}}
  %r = "coro.await"(%g) : (!coro.handle<none>) -> i32
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// `coro.await` that can never continue
func.func @await_self() -> !coro.handle<i32>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %s = "coro.self"() : () -> !coro.handle<i32>
// expected-error@+1 {{'coro.await' op awaits the coroutine's own handle: it would wait for its own end, which never comes}}
  %r = "coro.await"(%s) : (!coro.handle<i32>) -> i32
  "coro.end"(%h, %r) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// -----

// `coro.self` type differs from the coroutine's result
func.func @self_type() -> !coro.handle<i32>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
// expected-error@+1 {{'coro.self' op its result has type !coro.handle<none>, but the coroutine's handle is !coro.handle<i32>}}
  %s = "coro.self"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

// -----

// `coro.promise` result of another type than `T`
func.func @promise_type(%g: !coro.handle<i32>) -> i64 {
// expected-error@+1 {{'coro.promise' op result has type i64, but the handle publishes i32}}
  %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i64
  return %v : i64
}

// -----

// `coro.promise` on a handle that publishes nothing
func.func @promise_none(%g: !coro.handle<none>) -> none {
// expected-error@+1 {{'coro.promise' op reads a handle that publishes nothing}}
  %v = "coro.promise"(%g) : (!coro.handle<none>) -> none
  return %v : none
}

// -----

// `coro.resume` passes a value the coroutine does not take
func.func @gen() -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func @drive_gen(%v: i32) {
  %g = call @gen() : () -> !coro.handle<none>
// expected-error@+1 {{'coro.resume' op passes a value, but the coroutine it resumes is not a retcon coroutine}}
  "coro.resume"(%g, %v) : (!coro.handle<none>, i32) -> ()
  return
}

// -----

// `coro.resume` passes a value of another type than `R`
func.func @acc() -> !coro.handle<none>
    attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d, %in = "coro.yield"() : () -> (i1, i64)
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func @drive_acc(%v: i32) {
  %g = call @acc() : () -> !coro.handle<none>
// expected-error@+1 {{'coro.resume' op passes i32, but the coroutine's yields receive i64}}
  "coro.resume"(%g, %v) : (!coro.handle<none>, i32) -> ()
  return
}

// -----

// a value passed in on resume outside the retcon ABIs
func.func @switch_resume_value() -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
// expected-error@+1 {{'coro.yield' op receives a value on resume, which only the retcon and retcon.once ABIs can express (this coroutine is "switch")}}
  %d, %r = "coro.yield"() : () -> (i1, i32)
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// resume values of different types
func.func @mixed_resume() -> !coro.handle<none>
    attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d1, %a = "coro.yield"() : () -> (i1, i32)
// expected-error@+1 {{'coro.yield' op receives i64 on resume, but an earlier yield of this coroutine receives i32; all yields must agree}}
  %d2, %b = "coro.yield"() : () -> (i1, i64)
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// `retcon.once` path with other than exactly one suspension
func.func @twice() -> !coro.handle<none>
    attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d1 = "coro.yield"() : () -> i1
// expected-error@+1 {{'coro.yield' op suspends a second time on some path, but a retcon.once coroutine suspends exactly once}}
  %d2 = "coro.yield"() : () -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// suspension inside an op that cannot be split across
func.func @in_parallel(%n: index) -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
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

// dynamic-size alloca live across a suspension (every ABI)
func.func @dyn_alloca(%n: index) -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
// expected-error@+1 {{'memref.alloca' op allocates a dynamically sized stack buffer that is live across a suspension}}
  %buf = memref.alloca(%n) : memref<?xi8>
  %d = "coro.yield"() : () -> i1
  %c0 = arith.constant 0 : index
  %v = memref.load %buf[%c0] : memref<?xi8>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// token live across a suspension
func.func @token(%p: !llvm.ptr) -> !coro.handle<none>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %c = llvm.mlir.constant(0 : i32) : i32
// expected-error@+1 {{'llvm.call_intrinsic' op defines a token that is used after a suspension}}
  %t = llvm.call_intrinsic "llvm.coro.save"(%p) : (!llvm.ptr) -> !llvm.token
  %d = "coro.yield"() : () -> i1
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%t, %d) : (!llvm.token, i1) -> i8
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// unknown `coro.alloc`
// expected-error@+1 {{'func.func' op has an unknown coro.alloc; expected "heap", "elide" or "arena"}}
func.func @stack() -> !coro.handle<none>
    attributes {coro.abi = "switch", coro.alloc = "stack"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// `coro.alloc_fn` without `coro.free_fn`
func.func private @my_alloc(i64) -> !llvm.ptr
// expected-error@+1 {{'func.func' op has coro.alloc_fn without coro.free_fn; give both}}
func.func @half() -> !coro.handle<none>
    attributes {coro.abi = "switch", coro.alloc_fn = @my_alloc} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// both `coro.alloc` and an allocator pair
func.func private @my_alloc(i64) -> !llvm.ptr
func.func private @my_free(!llvm.ptr)
// expected-error@+1 {{'func.func' op has both coro.alloc and coro.alloc_fn/coro.free_fn; give one or the other}}
func.func @both() -> !coro.handle<none>
    attributes {coro.abi = "switch", coro.alloc = "heap",
                coro.alloc_fn = @my_alloc, coro.free_fn = @my_free} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// allocator that is not a function
llvm.mlir.global internal @pool(0 : i32) : i32
func.func private @my_free(!llvm.ptr)
// expected-error@+1 {{'func.func' op coro.alloc_fn refers to @pool, which is not a function}}
func.func @not_fn() -> !coro.handle<none>
    attributes {coro.abi = "switch", coro.alloc_fn = @pool,
                coro.free_fn = @my_free} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// `coro.buffer` outside the retcon ABIs
// expected-error@+1 {{'func.func' op has coro.buffer, which only the retcon and retcon.once ABIs use}}
func.func @switch_buffer() -> !coro.handle<none>
    attributes {coro.abi = "switch", coro.buffer = array<i64: 64, 8>} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// malformed `coro.buffer`
// expected-error@+1 {{'func.func' op coro.buffer must be array<i64: SIZE, ALIGN>}}
func.func @bad_buffer() -> !coro.handle<none>
    attributes {coro.abi = "retcon", coro.buffer = array<i64: 64>} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

// `coro.buffer` size or alignment out of range
// expected-error@+1 {{'func.func' op coro.buffer needs SIZE > 0 and ALIGN a power of two (got 64, 3)}}
func.func @odd_buffer() -> !coro.handle<none>
    attributes {coro.abi = "retcon", coro.buffer = array<i64: 64, 3>} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
