// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// Destroying a generator mid-way runs its cleanup path when it looks at the
// destroyed flag: the cleanup writes how far it got into a memref the
// caller reads afterwards. A generator that ignores the flag is freed
// without running anything (its memref slot keeps -1).
// 100 * 3 + (-1) = 299: the first was destroyed while suspended at its
// third yield (of 2; its cleanup stores 2 + 1), the second never writes.
// CHECK: 299
func.func @counter(%log: memref<2xi64>) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %d = "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.cond_br %d, ^cleanup(%next : i64), ^loop(%next : i64)
^cleanup(%k: i64):
  %z = arith.constant 0 : index
  memref.store %k, %log[%z] : memref<2xi64>
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @careless(%log: memref<2xi64>) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c7 = arith.constant 7 : i64
  "coro.yield"(%c7) : (i64) -> i1
  %one = arith.constant 1 : index
  memref.store %c7, %log[%one] : memref<2xi64>
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> i64 {
  %log = memref.alloca() : memref<2xi64>
  %m1 = arith.constant -1 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %m1, %log[%c0] : memref<2xi64>
  memref.store %m1, %log[%c1] : memref<2xi64>
  %g = call @counter(%log) : (memref<2xi64>) -> !coro.handle<i64>
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %c = call @careless(%log) : (memref<2xi64>) -> !coro.handle<i64>
  "coro.destroy"(%c) : (!coro.handle<i64>) -> ()
  %a = memref.load %log[%c0] : memref<2xi64>
  %b = memref.load %log[%c1] : memref<2xi64>
  %c100 = arith.constant 100 : i64
  %x = arith.muli %a, %c100 : i64
  %r = arith.addi %x, %b : i64
  return %r : i64
}
