// RUN: coro-opt %s --split-input-file --verify-diagnostics --convert-coro-to-llvm-switch --convert-coro-to-llvm-retcon --convert-coro-to-llvm-async

// A function the lowering calls (coro.alloc_fn, coro.free_fn, or the
// runtime entry the async lowering allocates tasks with) that the module
// has with another signature: a located error at the coroutine naming both
// signatures, not a type error inside generated code.

func.func private @my_alloc(i32) -> i32
func.func private @my_free(!llvm.ptr)
// expected-error@+1 {{the coroutine lowering calls '@my_alloc' as (i64) -> !llvm.ptr, but the module's '@my_alloc' has type (i32) -> i32}}
func.func @c() -> !coro.handle<none>
    attributes {coro.abi = "switch", coro.alloc_fn = @my_alloc, coro.free_fn = @my_free} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d = "coro.yield"() : () -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func private @my_alloc(i64) -> !llvm.ptr
llvm.func @my_free(i64)
// expected-error@+1 {{the coroutine lowering calls '@my_free' as (!llvm.ptr) -> (), but the module's '@my_free' has type !llvm.func<void (i64)>}}
func.func @r() -> !coro.handle<none>
    attributes {coro.abi = "retcon", coro.alloc_fn = @my_alloc, coro.free_fn = @my_free} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %d = "coro.yield"() : () -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func private @coro_rt_task_alloc(f32) -> f32
// expected-error@+1 {{the coroutine lowering calls '@coro_rt_task_alloc' as (i64) -> !llvm.ptr, but the module's '@coro_rt_task_alloc' has type (f32) -> f32}}
func.func @a() -> !coro.handle<none> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
