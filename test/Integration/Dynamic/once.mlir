// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// retcon.once: a buffer of %n elements (dynamic size) filled before the
// one suspension and summed after it. One coroutine is resumed to its end
// (its final value: 0 + 1 + ... + 9 = 45), one destroyed while suspended;
// route B frees the buffer on both paths (the sanitizer build checks).
// CHECK: {{^}}9{{$}}
// CHECK-NEXT: {{^}}45{{$}}
func.func @sum(%n: index) -> !coro.handle<i64> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %buf = memref.alloca(%n) : memref<?xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %buf[%i] : memref<?xi64>
  }
  %last = arith.subi %n, %c1 : index
  %l = memref.load %buf[%last] : memref<?xi64>
  %d = "coro.yield"(%l) : (i64) -> i1
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = memref.load %buf[%i] : memref<?xi64>
    %a = arith.addi %acc, %v : i64
    scf.yield %a : i64
  }
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i64) {
  %c10 = arith.constant 10 : index
  %g = call @sum(%c10) : (index) -> !coro.handle<i64>
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %r = call @sum(%c10) : (index) -> !coro.handle<i64>
  %y = "coro.promise"(%r) : (!coro.handle<i64>) -> i64
  "coro.resume"(%r) : (!coro.handle<i64>) -> ()
  %f = "coro.promise"(%r) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%r) : (!coro.handle<i64>) -> ()
  return %y, %f : i64, i64
}
