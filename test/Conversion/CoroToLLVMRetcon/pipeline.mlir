// RUN: coro-opt %s --coro-lower-retcon | FileCheck %s
// RUN: sed 's/coro.abi = "retcon"/coro.abi = "retcon.once"/' %s | coro-opt --coro-lower-retcon-once | FileCheck %s --check-prefix=ONCE

// The named pipelines verify, put scf in CFG form, lower the coroutine and
// convert everything else to the LLVM dialect: nothing but llvm ops is
// left. (The body suspends exactly once on every path, so it is a valid
// retcon.once coroutine too.)

// CHECK-NOT: func.func
// CHECK-NOT: "coro.
// CHECK-NOT: unrealized_conversion_cast
// CHECK-LABEL: llvm.func @swap.coro.ramp
// CHECK-SAME: passthrough = ["presplitcoroutine", "noinline"]
// CHECK: "llvm.coro.id.retcon"
// CHECK: llvm.call @llvm.coro.suspend.retcon.sl_i1i64s
// CHECK-LABEL: llvm.func @swap(
// CHECK-NOT: scf.
// CHECK-NOT: arith.
// CHECK-NOT: cf.
// CHECK-NOT: memref.
// ONCE-LABEL: llvm.func @swap.coro.ramp
// ONCE: "llvm.coro.id.retcon.once"
// ONCE: llvm.call @llvm.coro.end.results
func.func @swap(%m: memref<2xi64>, %i: index) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %old = memref.load %m[%i] : memref<2xi64>
  %d, %new = "coro.yield"(%old) : (i64) -> (i1, i64)
  scf.if %d {
  } else {
    memref.store %new, %m[%i] : memref<2xi64>
  }
  "coro.end"(%h, %old) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
