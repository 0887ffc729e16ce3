// RUN: not coro-run %s --route=llvm 2>&1 | FileCheck %s
// RUN: not coro-translate %s --route=llvm --emit=obj -o %t.o 2>&1 | FileCheck %s
// RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=B

// The module says route B (coro.route = "mlir-split") but the tool lowers
// with route A: the tool's route decides, the attribute goes, and the
// verifier refuses the dynamic alloca route A cannot lower, at the op. It
// used to accept it, and LLVM's CoroSplit then failed without a location.
// CHECK: route-attr-route-a.mlir:[[#@LINE+7]]:8: error: 'memref.alloca' op allocates a dynamically sized stack buffer that is live across a suspension
// CHECK-NOT: cannot handle non static allocas
// B: 0
module attributes {coro.route = "mlir-split"} {
func.func @dyn(%n: index) -> !coro.handle<f32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  %c0 = arith.constant 0 : index
  %m = memref.alloca(%n) : memref<?xf32>
  %d = "coro.yield"() : () -> i1
  %v = memref.load %m[%c0] : memref<?xf32>
  "coro.end"(%h, %v) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}
func.func @main() -> i64 {
  %c4 = arith.constant 4 : index
  %h = func.call @dyn(%c4) : (index) -> !coro.handle<f32>
  "coro.destroy"(%h) : (!coro.handle<f32>) -> ()
  %z = arith.constant 0 : i64
  return %z : i64
}
}
