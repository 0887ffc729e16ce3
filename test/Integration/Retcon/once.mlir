// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// Route B (coro's own --coro-split) gives the same results:
// RUN: coro-run %s --route=mlir-split | FileCheck %s
// RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s

// A yield-once accessor (retcon.once): @cell yields the value of m[i]; when
// resumed with a new value it stores it and ends with old + new as its
// final result (coro.end's value, returned through LLVM's
// coro.end.results and read with coro.promise once done). Destroyed
// instead, it is resumed abnormally and leaves m[i] alone.
// yielded 40; final 40 + 2; done; m[2] after the commit (2) and after the
// destroyed accessor (still 2).
// CHECK: {{^}}40{{$}}
// CHECK-NEXT: {{^}}42{{$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^}}2{{$}}
// CHECK-NEXT: {{^}}2{{$}}
func.func @cell(%m: memref<4xi64>, %i: index) -> !coro.handle<i64> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %old = memref.load %m[%i] : memref<4xi64>
  %d, %new = "coro.yield"(%old) : (i64) -> (i1, i64)
  cf.cond_br %d, ^abort, ^commit
^commit:
  memref.store %new, %m[%i] : memref<4xi64>
  %r = arith.addi %old, %new : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^abort:
  "coro.end"(%h, %old) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i64, i1, i64, i64) {
  %m = memref.alloca() : memref<4xi64>
  %c2 = arith.constant 2 : index
  %c40 = arith.constant 40 : i64
  memref.store %c40, %m[%c2] : memref<4xi64>
  %a = call @cell(%m, %c2) : (memref<4xi64>, index) -> !coro.handle<i64>
  %v = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  %two = arith.constant 2 : i64
  "coro.resume"(%a, %two) : (!coro.handle<i64>, i64) -> ()
  %done = "coro.done"(%a) : (!coro.handle<i64>) -> i1
  %f = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  %after = memref.load %m[%c2] : memref<4xi64>
  %b = call @cell(%m, %c2) : (memref<4xi64>, index) -> !coro.handle<i64>
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %kept = memref.load %m[%c2] : memref<4xi64>
  return %v, %f, %done, %after, %kept : i64, i64, i1, i64, i64
}
