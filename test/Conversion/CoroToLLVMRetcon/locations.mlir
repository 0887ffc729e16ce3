// RUN: coro-opt %s --convert-coro-to-llvm-retcon --mlir-print-debuginfo > %t
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=TEXT < %t
// RUN: sed 's/"retcon"/"retcon.once"/' %s | coro-opt --convert-coro-to-llvm-retcon-once --mlir-print-debuginfo > %t.once
// RUN: FileCheck %s < %t.once
// RUN: FileCheck %s --check-prefix=TEXT < %t.once

// Functions the conversion generates carry the location of the coroutine
// they were generated for, named after what they are, and so do their ops:
// never a position in a template text (which the tools would print as a
// line of this file). The declarations it adds are at the coroutine.

// Nowhere in the output: the buffer names of parsed text.
// TEXT-NOT: coro-lowering
// TEXT-NOT: loc("-":

// CHECK-NOT: coro-lowering
// CHECK-DAG: #[[F:loc[0-9]+]] = loc({{.*}}:[[@LINE+22]]:1)
// CHECK-DAG: #[[P:loc[0-9]+]] = loc("gen.coro.proto"(#[[F]]))
// CHECK-DAG: #[[A:loc[0-9]+]] = loc("gen.coro.alloc"(#[[F]]))
// CHECK-DAG: #[[Z:loc[0-9]+]] = loc("gen.coro.free"(#[[F]]))
// CHECK-DAG: #[[S:loc[0-9]+]] = loc("gen.coro.settle"(#[[F]]))
// CHECK-DAG: #[[R:loc[0-9]+]] = loc("gen.coro.resume"(#[[F]]))
// CHECK-DAG: #[[D:loc[0-9]+]] = loc("gen.coro.destroy"(#[[F]]))
// CHECK-DAG: #[[E:loc[0-9]+]] = loc("gen"(#[[F]]))
// CHECK-DAG: llvm.func @llvm.coro.suspend.retcon.i1(...) -> i1 loc(#[[F]])
// CHECK-DAG: llvm.func @gen.coro.proto(!llvm.ptr, i1) -> {{.*}} loc(#[[P]])
// CHECK-DAG: llvm.func internal @gen.coro.alloc(%{{.*}}: i64 loc("gen.coro.alloc"(#[[F]])))
// CHECK-DAG: func.call @my_alloc(%{{.*}}) : (i64) -> !llvm.ptr loc(#[[A]])
// CHECK-DAG: llvm.func internal @gen.coro.free(%{{.*}}: !llvm.ptr loc("gen.coro.free"(#[[F]])))
// CHECK-DAG: func.call @my_free(%{{.*}}) : (!llvm.ptr) -> () loc(#[[Z]])
// CHECK-DAG: llvm.func internal @gen.coro.settle(%{{.*}}: !llvm.ptr loc("gen.coro.settle"(#[[F]])), %{{.*}}: !llvm.struct<(ptr, i64, ptr)> loc("gen.coro.settle"(#[[F]])), %{{.*}}: !llvm.ptr loc("gen.coro.settle"(#[[F]])))
// CHECK-DAG: llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, i64, ptr)> loc(#[[S]])
// CHECK-DAG: llvm.func internal fastcc @gen.coro.resume(%{{.*}}: !llvm.ptr loc("gen.coro.resume"(#[[F]])))
// CHECK-DAG: llvm.call fastcc musttail %{{.*}}(%{{.*}}) : !llvm.ptr, (!llvm.ptr) -> () loc(#[[R]])
// CHECK-DAG: llvm.func internal fastcc @gen.coro.destroy(%{{.*}}: !llvm.ptr loc("gen.coro.destroy"(#[[F]])))
// CHECK-DAG: func.call @my_free(%{{.*}}) : (!llvm.ptr) -> () loc(#[[D]])
// CHECK-DAG: func.func @gen(%{{.*}}: i32 loc("gen"(#[[F]]))) -> !llvm.ptr
// CHECK-DAG: llvm.intr.coro.resume %{{.*}} : !llvm.ptr loc(#[[E]])
func.func @gen(%x: i32) -> !coro.handle<i64> attributes {coro.abi = "retcon", coro.alloc_fn = @my_alloc, coro.free_fn = @my_free} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 1 : i64
  %d = "coro.yield"(%c) : (i64) -> i1
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
func.func private @my_alloc(i64) -> !llvm.ptr
func.func private @my_free(!llvm.ptr)
