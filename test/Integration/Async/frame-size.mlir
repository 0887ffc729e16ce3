// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s
// RUN: coro-translate --route=llvm %s --emit=split-llvm | FileCheck %s --check-prefix=RECORD
// RUN: coro-translate %s --emit=split-llvm --route=mlir-split | FileCheck %s --check-prefix=RECORD

// A frame much larger than the context header: 256 i64 in a stack buffer
// that lives across the yield. CoroSplit writes header + frame into the
// async function pointer record, and the entry allocates what the record
// says (a smaller task would overflow: the sanitizer build would report
// it); route B (--coro-split) fills the record in the same way. The sum of
// 0..255 is 32640.
// CHECK: {{^}}32640{{$}}
// The record holds the header (32 bytes) plus a frame of at least 2048.
// RECORD: @big.coro.fp = internal global <{ i32, i32 }> <{ i32 0, i32 {{[2-9][0-9][0-9][0-9]}} }>
func.func @big() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %buf = memref.alloca() : memref<256xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c256 step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %buf[%i] : memref<256xi64>
  }
  %d = "coro.yield"() : () -> i1
  %zero = arith.constant 0 : i64
  %sum = scf.for %i = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = memref.load %buf[%i] : memref<256xi64>
    %s = arith.addi %acc, %v : i64
    scf.yield %s : i64
  }
  "coro.end"(%h, %sum) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> i64 {
  %g = call @big() : () -> !coro.handle<i64>
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %r = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %r : i64
}
