// RUN: coro-opt %s --convert-coro-to-llvm-switch | FileCheck %s --check-prefix=IR
// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// Two paths that each reach their own coro.end, and two resume blocks that
// differ only in the memref they update (MLIR's greedy driver would merge
// them into one block with a memref argument, which no conversion after
// the coroutine conversion retypes): LLVM allows one final suspension, so
// every coro.end of a switch coroutine branches to the same one.
// IR-LABEL: func.func @gen
// IR: llvm.mlir.addressof @__coro_switch_final
// IR-NOT: llvm.mlir.addressof @__coro_switch_final
// IR-LABEL: func.func @main
// CHECK: 11
// CHECK-NEXT: 12
// CHECK-NEXT: 4
// CHECK-NEXT: 99
func.func @gen(%n: i32, %c: i1, %a: memref<i32>, %b: memref<i32>) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %k = arith.constant 10 : i32
  cf.cond_br %c, ^x, ^y
^x:
  %p = arith.addi %n, %n : i32
  %d = "coro.yield"(%p) : (i32) -> i1
  %v = memref.load %a[] : memref<i32>
  %s = arith.addi %v, %k : i32
  memref.store %s, %a[] : memref<i32>
  "coro.end"(%h, %p) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
^y:
  %m = arith.muli %n, %n : i32
  %e = "coro.yield"(%m) : (i32) -> i1
  %w = memref.load %b[] : memref<i32>
  %t = arith.addi %w, %k : i32
  memref.store %t, %b[] : memref<i32>
  %c99 = arith.constant 99 : i32
  "coro.end"(%h, %c99) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @main() -> (i32, i32, i32, i32) {
  %a = memref.alloca() : memref<i32>
  %b = memref.alloca() : memref<i32>
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  memref.store %one, %a[] : memref<i32>
  memref.store %two, %b[] : memref<i32>
  %t = arith.constant true
  %f = arith.constant false
  %g = call @gen(%two, %t, %a, %b) : (i32, i1, memref<i32>, memref<i32>) -> !coro.handle<i32>
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  %r1 = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  %g2 = call @gen(%one, %f, %a, %b) : (i32, i1, memref<i32>, memref<i32>) -> !coro.handle<i32>
  "coro.resume"(%g2) : (!coro.handle<i32>) -> ()
  %r2 = "coro.promise"(%g2) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g2) : (!coro.handle<i32>) -> ()
  %va = memref.load %a[] : memref<i32>
  %vb = memref.load %b[] : memref<i32>
  return %va, %vb, %r1, %r2 : i32, i32, i32, i32
}
