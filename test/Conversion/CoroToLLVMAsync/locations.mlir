// RUN: coro-opt %s --convert-coro-to-llvm-async --mlir-print-debuginfo > %t
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=TEXT < %t

// Functions the conversion generates carry the location of the coroutine
// they were generated for, named after what they are, and so do their ops:
// never a position in a template text (which the tools would print as a
// line of this file). The declarations it adds are at the coroutine.

// Nowhere in the output: the buffer names of parsed text.
// TEXT-NOT: coro-lowering
// TEXT-NOT: loc("-":

// CHECK-NOT: coro-lowering
// CHECK-DAG: #[[F:loc[0-9]+]] = loc({{.*}}:[[@LINE+30]]:1)
// CHECK-DAG: #[[PROJ:loc[0-9]+]] = loc("__coro_async_project"(#[[F]]))
// CHECK-DAG: #[[PARK:loc[0-9]+]] = loc("__coro_async_park"(#[[F]]))
// CHECK-DAG: #[[AW:loc[0-9]+]] = loc("__coro_async_await"(#[[F]]))
// CHECK-DAG: #[[ANY:loc[0-9]+]] = loc("__coro_async_await_any"(#[[F]]))
// CHECK-DAG: #[[FIN:loc[0-9]+]] = loc("__coro_async_finish"(#[[F]]))
// CHECK-DAG: #[[RES:loc[0-9]+]] = loc("task.coro.resume"(#[[F]]))
// CHECK-DAG: #[[FP:loc[0-9]+]] = loc("task.coro.fp"(#[[F]]))
// CHECK-DAG: #[[D:loc[0-9]+]] = loc("task.coro.destroy"(#[[F]]))
// CHECK-DAG: #[[E:loc[0-9]+]] = loc("task"(#[[F]]))
// CHECK-DAG: llvm.func @llvm.coro.end.async(!llvm.ptr, i1, ...) loc(#[[F]])
// CHECK-DAG: llvm.func @llvm.coro.suspend.async.sl_p0s(i32, !llvm.ptr, !llvm.ptr, ...) -> !llvm.struct<(ptr)> loc(#[[F]])
// CHECK-DAG: llvm.func @coro_rt_task_alloc(i64) -> !llvm.ptr loc(#[[F]])
// CHECK-DAG: llvm.func internal @__coro_async_project(%{{.*}}: !llvm.ptr loc("__coro_async_project"(#[[F]]))) -> !llvm.ptr
// CHECK-DAG: llvm.return %{{.*}} : !llvm.ptr loc(#[[PROJ]])
// CHECK-DAG: llvm.func internal swifttailcc @__coro_async_park(%{{.*}}: !llvm.ptr loc("__coro_async_park"(#[[F]])), %{{.*}}: !llvm.ptr loc("__coro_async_park"(#[[F]])))
// CHECK-DAG: llvm.func internal swifttailcc @__coro_async_await(%{{.*}}: !llvm.ptr loc("__coro_async_await"(#[[F]])),
// CHECK-DAG: llvm.call swifttailcc musttail %{{.*}}(%{{.*}}) : !llvm.ptr, (!llvm.ptr) -> () loc(#[[AW]])
// CHECK-DAG: llvm.func internal swifttailcc @__coro_async_await_any(%{{.*}}: !llvm.ptr loc("__coro_async_await_any"(#[[F]])),
// CHECK-DAG: llvm.store %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr loc(#[[ANY]])
// CHECK-DAG: llvm.func internal swifttailcc @__coro_async_finish(%{{.*}}: !llvm.ptr loc("__coro_async_finish"(#[[F]])))
// CHECK-DAG: llvm.call swifttailcc musttail %{{.*}}(%{{.*}}) : !llvm.ptr, (!llvm.ptr) -> () loc(#[[FIN]])
// CHECK-DAG: llvm.func internal fastcc @task.coro.resume(%{{.*}}: !llvm.ptr loc("task.coro.resume"(#[[F]])))
// CHECK-DAG: llvm.call swifttailcc %{{.*}}(%{{.*}}) {coro.continuation_of = @task.coro.async} : !llvm.ptr, (!llvm.ptr) -> () loc(#[[RES]])
// CHECK-DAG: llvm.call fastcc musttail %{{.*}}(%{{.*}}) : !llvm.ptr, (!llvm.ptr) -> () loc(#[[RES]])
// CHECK-DAG: llvm.mlir.constant(48 : i32) : i32 loc(#[[FP]])
// CHECK-DAG: llvm.func internal fastcc @task.coro.destroy(%{{.*}}: !llvm.ptr loc("task.coro.destroy"(#[[F]])))
// CHECK-DAG: llvm.call @coro_rt_task_free(%{{.*}}) : (!llvm.ptr) -> () loc(#[[D]])
// CHECK-DAG: func.func @task(%{{.*}}: i32 loc("task"(#[[F]])), %{{.*}}: !llvm.ptr loc("task"(#[[F]]))) -> !llvm.ptr
// CHECK-DAG: llvm.load volatile %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32 loc(#[[E]])
func.func @task(%x: i32, %c: !coro.handle<none>) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %one = arith.constant 1 : i64
  %d = "coro.yield"(%one) : (i64) -> i1
  "coro.await"(%c) : (!coro.handle<none>) -> ()
  "coro.end"(%h, %one) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// The shared functions are built once, at the first coroutine; each other
// coroutine's own functions are at that coroutine.
// CHECK-DAG: #[[G:loc[0-9]+]] = loc({{.*}}:[[@LINE+4]]:1)
// CHECK-DAG: #[[GFP:loc[0-9]+]] = loc("outer.coro.fp"(#[[G]]))
// CHECK-DAG: llvm.mlir.constant(32 : i32) : i32 loc(#[[GFP]])
// CHECK-DAG: llvm.func internal fastcc @outer.coro.destroy(%{{.*}}: !llvm.ptr loc("outer.coro.destroy"(#[[G]])))
func.func @outer() -> !coro.handle<none> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %c = arith.constant 2 : i32
  %n = "coro.noop"() : () -> !coro.handle<none>
  %t = func.call @task(%c, %n) : (i32, !coro.handle<none>) -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
