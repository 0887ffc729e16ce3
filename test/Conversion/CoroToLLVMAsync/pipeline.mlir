// RUN: coro-opt %s --coro-lower-async | FileCheck %s

// The named pipeline verifies, puts scf in CFG form, lowers the coroutine
// and converts everything else to the LLVM dialect; the body is a
// swifttailcc llvm.func and the entry calls it in swifttailcc.

// CHECK-NOT: func.func
// CHECK-NOT: "coro.
// CHECK-NOT: unrealized_conversion_cast
// CHECK-LABEL: llvm.func swifttailcc @count.coro.async
// CHECK-SAME: passthrough = ["presplitcoroutine", "noinline"]
// CHECK: "llvm.coro.id.async"
// CHECK: llvm.call @llvm.coro.suspend.async.sl_p0s
// CHECK: llvm.call @llvm.coro.end.async
// CHECK-LABEL: llvm.func @count(
// CHECK: %[[F:.*]] = llvm.mlir.addressof @count.coro.async
// CHECK: llvm.call swifttailcc %[[F]]
// CHECK-NOT: scf.
// CHECK-NOT: arith.
// CHECK-NOT: cf.
func.func @count(%n: index) -> !coro.handle<index> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<index>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %d = "coro.yield"(%i) : (index) -> i1
  }
  "coro.end"(%h, %n) : (!coro.handle<index>, index) -> ()
  return %h : !coro.handle<index>
}
