// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// A memref.subview (a strided layout) live across a suspension, in a
// switch and in a retcon coroutine: the lowering expands strided metadata
// (expand-strided-metadata) before memref reaches the LLVM dialect; it
// used to stop at an unrealized_conversion_cast LLVM cannot translate.
// Each coroutine reads element 0 of the view of m[2..6) after its first
// suspension: 42 and 42, plus 1 and 1 yielded first.
// CHECK: 86

func.func @sw(%m: memref<8xi64>) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %s = memref.subview %m[2] [4] [1] : memref<8xi64> to memref<4xi64, strided<[1], offset: 2>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : i64
  "coro.yield"(%c1) : (i64) -> i1
  %v = memref.load %s[%c0] : memref<4xi64, strided<[1], offset: 2>>
  "coro.yield"(%v) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @rc(%m: memref<8xi64>) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %s = memref.subview %m[2] [4] [1] : memref<8xi64> to memref<4xi64, strided<[1], offset: 2>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : i64
  "coro.yield"(%c1) : (i64) -> i1
  %v = memref.load %s[%c0] : memref<4xi64, strided<[1], offset: 2>>
  "coro.yield"(%v) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @two(%h: !coro.handle<i64>) -> i64 {
  %a = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  %b = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  %s = arith.addi %a, %b : i64
  return %s : i64
}

func.func @main() -> i64 {
  %m = memref.alloca() : memref<8xi64>
  %c2 = arith.constant 2 : index
  %c42 = arith.constant 42 : i64
  memref.store %c42, %m[%c2] : memref<8xi64>
  %h = func.call @sw(%m) : (memref<8xi64>) -> !coro.handle<i64>
  %x = func.call @two(%h) : (!coro.handle<i64>) -> i64
  %g = func.call @rc(%m) : (memref<8xi64>) -> !coro.handle<i64>
  %y = func.call @two(%g) : (!coro.handle<i64>) -> i64
  %t = arith.addi %x, %y : i64
  return %t : i64
}
