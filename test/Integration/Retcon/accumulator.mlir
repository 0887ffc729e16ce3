// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// Route B (coro's own --coro-split) gives the same results:
// RUN: coro-run %s --route=mlir-split | FileCheck %s
// RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s

// An accumulator fed on resume: every coro.resume passes a value (the R of
// the yield), the coroutine adds it and publishes the running sum.
// Feeding 1..10 publishes 55. Destroying it resumes it abnormally: the
// yield's flag is true and the cleanup path logs the sum so far. A second
// accumulator, fed 1, 2, 3 and destroyed, logs 6.
// CHECK: {{^}}0{{$}}
// CHECK-NEXT: {{^}}55{{$}}
// CHECK-NEXT: {{^}}55{{$}}
// CHECK-NEXT: {{^}}6{{$}}
func.func @acc(%log: memref<1xi64>) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  cf.br ^loop(%c0 : i64)
^loop(%sum: i64):
  %d, %x = "coro.yield"(%sum) : (i64) -> (i1, i64)
  cf.cond_br %d, ^cleanup(%sum : i64), ^add
^add:
  %s2 = arith.addi %sum, %x : i64
  cf.br ^loop(%s2 : i64)
^cleanup(%s: i64):
  %z = arith.constant 0 : index
  memref.store %s, %log[%z] : memref<1xi64>
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @feed(%g: !coro.handle<i64>, %n: i64) {
  %c1 = arith.constant 1 : i64
  %n1 = arith.addi %n, %c1 : i64
  scf.for %i = %c1 to %n1 step %c1 : i64 {
    "coro.resume"(%g, %i) : (!coro.handle<i64>, i64) -> ()
  }
  return
}

func.func @main() -> (i64, i64, i64, i64) {
  %log = memref.alloca() : memref<1xi64>
  %z = arith.constant 0 : index
  %a = call @acc(%log) : (memref<1xi64>) -> !coro.handle<i64>
  %first = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  %c10 = arith.constant 10 : i64
  call @feed(%a, %c10) : (!coro.handle<i64>, i64) -> ()
  %sum = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  %logged = memref.load %log[%z] : memref<1xi64>
  %b = call @acc(%log) : (memref<1xi64>) -> !coro.handle<i64>
  %c3 = arith.constant 3 : i64
  call @feed(%b, %c3) : (!coro.handle<i64>, i64) -> ()
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %logged2 = memref.load %log[%z] : memref<1xi64>
  return %first, %sum, %logged, %logged2 : i64, i64, i64, i64
}
