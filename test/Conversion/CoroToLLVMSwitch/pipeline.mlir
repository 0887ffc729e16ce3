// RUN: coro-opt %s --coro-lower-switch | FileCheck %s

// The named pipeline verifies, puts scf in CFG form (so the yield inside the
// loop can be split), lowers the coroutine, and converts everything else to
// the LLVM dialect: no func, arith, cf, scf, memref or coro op and no cast
// is left.

// CHECK-NOT: func.func
// CHECK-NOT: "coro.
// CHECK-NOT: unrealized_conversion_cast
// CHECK-LABEL: llvm.func @squares
// CHECK-SAME: (%{{.*}}: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]}
// CHECK: llvm.intr.coro.suspend
// CHECK-LABEL: llvm.func @first
// CHECK: llvm.intr.coro.promise
// CHECK-NOT: scf.
// CHECK-NOT: arith.
// CHECK-NOT: cf.
// CHECK-NOT: memref.
func.func @squares(%n: index) -> !coro.handle<index> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<index>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %sq = arith.muli %i, %i : index
    %d = "coro.yield"(%sq) : (index) -> i1
  }
  "coro.end"(%h, %n) : (!coro.handle<index>, index) -> ()
  return %h : !coro.handle<index>
}

func.func @first(%n: index, %m: memref<?xindex>) -> index {
  %g = call @squares(%n) : (index) -> !coro.handle<index>
  %v = "coro.promise"(%g) : (!coro.handle<index>) -> index
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0] : memref<?xindex>
  "coro.destroy"(%g) : (!coro.handle<index>) -> ()
  return %v : index
}
