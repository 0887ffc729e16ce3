// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// A memref.alloca before coro.begin, written there and read after a
// suspension: the coroutine proper starts at the alloca (coro.begin moves
// up to it), so the buffer lives in the frame, not in the ramp's stack
// frame that is gone once the coroutine first suspends. Code before the
// alloca still runs before the frame exists.
// CHECK: 6
// CHECK-NEXT: 6
// CHECK-NEXT: 13
func.func @gen(%x: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %c7 = arith.constant 7 : i32
  %y = arith.addi %x, %c7 : i32
  %m = memref.alloca() : memref<i32>
  %n = memref.alloca() : memref<i32>
  memref.store %x, %m[] : memref<i32>
  memref.store %y, %n[] : memref<i32>
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %d = "coro.yield"(%x) : (i32) -> i1
  %w = memref.load %m[] : memref<i32>
  %d2 = "coro.yield"(%w) : (i32) -> i1
  %v = memref.load %n[] : memref<i32>
  "coro.end"(%h, %v) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @main() -> (i32, i32, i32) {
  %x = arith.constant 6 : i32
  %g = call @gen(%x) : (i32) -> !coro.handle<i32>
  %a = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  %r = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  %e = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return %a, %r, %e : i32, i32, i32
}
