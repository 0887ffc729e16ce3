// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// A buffer aligned to 64 bytes lives across a suspension of an async
// coroutine, whose frame (in the async context) is aligned to 16 only:
// both routes give it storage padded for the alignment and align its
// address at run time (LLVM's CoroSplit does; route B's frame layout
// pads the field and rounds the address up). The coroutine checks the
// alignment on both sides of the suspension and the values it kept:
// 0 0 (address mod 64 before and after), then 1 + 2 + 3 + 4 = 10.
// CHECK: {{^}}0{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}10{{$}}
func.func @aligned() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %buf = memref.alloca() {alignment = 64 : i64} : memref<4xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %w = arith.addi %v, %one : i64
    memref.store %w, %buf[%i] : memref<4xi64>
  }
  %p0 = memref.extract_aligned_pointer_as_index %buf : memref<4xi64> -> index
  %m0 = arith.remui %p0, %c64 : index
  %r0 = arith.index_cast %m0 : index to i64
  "coro.yield"(%r0) : (i64) -> i1
  %p1 = memref.extract_aligned_pointer_as_index %buf : memref<4xi64> -> index
  %m1 = arith.remui %p1, %c64 : index
  %r1 = arith.index_cast %m1 : index to i64
  "coro.yield"(%r1) : (i64) -> i1
  %zero = arith.constant 0 : i64
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = memref.load %buf[%i] : memref<4xi64>
    %a = arith.addi %acc, %v : i64
    scf.yield %a : i64
  }
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i64, i64) {
  %g = call @aligned() : () -> !coro.handle<i64>
  %a = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %b = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %c = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %a, %b, %c : i64, i64, i64
}
