// RUN: coro-opt %s --convert-coro-to-llvm-switch --mlir-print-debuginfo | FileCheck %s

// Functions the conversion generates carry the location of the coroutine
// they were generated for, named after what they are: never a position in
// a template text (which the tools would print as a line of this file).

// CHECK-NOT: coro-lowering
// CHECK-DAG: #[[F:loc[0-9]+]] = loc({{.*}}:[[@LINE+6]]:1)
// CHECK-DAG: #[[A:loc[0-9]+]] = loc("__coro_switch_await"(#[[F]]))
// CHECK-DAG: #[[Z:loc[0-9]+]] = loc("__coro_switch_final"(#[[F]]))
// CHECK-DAG: llvm.func internal @__coro_switch_await(%{{.*}}: !llvm.ptr loc("__coro_switch_await"(#[[F]]))
// CHECK-DAG: llvm.func internal @__coro_switch_final(%{{.*}}: !llvm.ptr loc("__coro_switch_final"(#[[F]]))
// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr loc(#[[F]])
func.func @awaiter(%child: !coro.handle<none>) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.await"(%child) : (!coro.handle<none>) -> ()
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
