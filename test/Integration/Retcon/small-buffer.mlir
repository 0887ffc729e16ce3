// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-opt %s --convert-coro-to-llvm-retcon | FileCheck %s --check-prefix=LAYOUT
// Route B (coro's own --coro-split) gives the same results:
// RUN: coro-run %s --route=mlir-split | FileCheck %s
// RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s

// coro.buffer smaller than a pointer: the frame does not fit, LLVM
// allocates it and keeps its pointer in the buffer, so the buffer is made
// one pointer (8 bytes, aligned 8) at least. It was 1 byte, and LLVM wrote
// the pointer past the end of the control block (a heap overflow).
// CHECK: 22
// LAYOUT: !llvm.struct<(ptr, ptr, struct<(ptr, i32)>, ptr, i8, array<1 x i64>)>
func.func @gen() -> !coro.handle<i32> attributes {coro.abi = "retcon", coro.buffer = array<i64: 1, 1>} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 11 : i32
  %d = "coro.yield"(%c) : (i32) -> i1
  "coro.end"(%h, %c) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @main() -> i32 {
  %g = call @gen() : () -> !coro.handle<i32>
  %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  %w = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  %r = arith.addi %v, %w : i32
  return %r : i32
}
