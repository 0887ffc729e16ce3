// RUN: coro-opt %s --coro-verify | FileCheck %s
// RUN: coro-opt %s --coro-lower-switch --coro-split | FileCheck %s --check-prefix=SPLIT

// A module lowered by route B (coro.route = "mlir-split", which coro-run
// --route=mlir-split and coroLowerToLLVMDialectWithOptions set) may keep an
// alloca of dynamic size across a suspension: the verifier accepts it (the
// same input without the attribute is an error naming route B:
// verify-invalid.mlir), and --coro-split gives it heap memory the frame owns.
// CHECK-LABEL: func.func @dyn_alloca
// CHECK: memref.alloca(%{{.*}}) : memref<?xf32>
// SPLIT-LABEL: llvm.func @dyn_alloca(
// SPLIT: llvm.call @malloc(
// SPLIT: llvm.func internal @__coro_free_allocas(
module attributes {coro.route = "mlir-split"} {
func.func @dyn_alloca(%n: index) -> !coro.handle<f32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  %c0 = arith.constant 0 : index
  %m = memref.alloca(%n) : memref<?xf32>
  %d = "coro.yield"() : () -> i1
  %v = memref.load %m[%c0] : memref<?xf32>
  "coro.end"(%h, %v) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}
}
