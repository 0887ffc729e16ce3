// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s
// RUN: sed 's/coro.abi = "async"/coro.abi = "switch"/' %s > %t.switch.mlir
// RUN: coro-run --route=llvm %t.switch.mlir | FileCheck %s

// Destroying an awaiter, then what it awaits. @a awaits @b, which runs to
// its second yield. main destroys @a (suspended in its await), then @b:
// @b runs its cleanup (its yield returns true) and ends, and that end must
// not transfer to @a, which is gone (as under the switch ABI, where a
// destroyed coroutine never reaches its final suspension). main reads
// neither done, @b's cleanup ran (1), @a never continued (0).
// CHECK: {{^}}0{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^}}0{{$}}
func.func @b(%log: memref<2xi64>) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %d = "coro.yield"() : () -> i1
  cf.cond_br %d, ^cleanup, ^more
^more:
  %d2 = "coro.yield"() : () -> i1
  cf.cond_br %d2, ^cleanup, ^end
^cleanup:
  memref.store %one, %log[%c0] : memref<2xi64>
  cf.br ^end
^end:
  %c = arith.constant 7 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @a(%t: !coro.handle<i64>, %log: memref<2xi64>) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  %c1 = arith.constant 1 : index
  memref.store %v, %log[%c1] : memref<2xi64>
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i1, i1, i64, i64) {
  %log = memref.alloca() : memref<2xi64>
  %z = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %z, %log[%c0] : memref<2xi64>
  memref.store %z, %log[%c1] : memref<2xi64>
  %tb = call @b(%log) : (memref<2xi64>) -> !coro.handle<i64>
  %ta = call @a(%tb, %log) : (!coro.handle<i64>, memref<2xi64>) -> !coro.handle<i64>
  %da = "coro.done"(%ta) : (!coro.handle<i64>) -> i1
  %db = "coro.done"(%tb) : (!coro.handle<i64>) -> i1
  "coro.destroy"(%ta) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%tb) : (!coro.handle<i64>) -> ()
  %cleanup = memref.load %log[%c0] : memref<2xi64>
  %continued = memref.load %log[%c1] : memref<2xi64>
  return %da, %db, %cleanup, %continued : i1, i1, i64, i64
}
