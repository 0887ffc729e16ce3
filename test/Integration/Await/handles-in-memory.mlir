// Handles of every ABI kept in memory: a handle lowers to !llvm.ptr under
// every ABI, so a program casts it to one (builtin.unrealized_conversion_cast)
// to store it, and casts what it loads back to !coro.handle<T>. Four
// coroutines, one per ABI, in one module: their handles go into an array
// on the stack, and a plain helper that sees only the array drives each to
// its end and reads its final result. Both routes, -O0 and -O2.
// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run %s --route=mlir-split | FileCheck %s
// RUN: coro-run %s -O2 --route=mlir-split | FileCheck %s
// The first yields of the four (1 + 2 + 3 + 4), the resumes the helper took
// (one each), the sum of the final results (10 + 20 + 30 + 40).
// CHECK: 10
// CHECK-NEXT: 4
// CHECK-NEXT: 100
func.func @sw(%v: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 1 : i32
  %d = "coro.yield"(%c) : (i32) -> i1
  "coro.end"(%h, %v) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @rc(%v: i32) -> !coro.handle<i32> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 2 : i32
  %d = "coro.yield"(%c) : (i32) -> i1
  "coro.end"(%h, %v) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @once(%v: i32) -> !coro.handle<i32> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 3 : i32
  %d = "coro.yield"(%c) : (i32) -> i1
  "coro.end"(%h, %v) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @as(%v: i32) -> !coro.handle<i32> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 4 : i32
  %d = "coro.yield"(%c) : (i32) -> i1
  "coro.end"(%h, %v) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
// Stores handle %h at %arr[%i].
func.func @put(%arr: !llvm.ptr, %i: i64, %h: !coro.handle<i32>) {
  %p = builtin.unrealized_conversion_cast %h : !coro.handle<i32> to !llvm.ptr
  %at = llvm.getelementptr %arr[%i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
  llvm.store %p, %at : !llvm.ptr, !llvm.ptr
  return
}
// Loads the handle at %arr[%i].
func.func @get(%arr: !llvm.ptr, %i: i64) -> !coro.handle<i32> {
  %at = llvm.getelementptr %arr[%i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
  %p = llvm.load %at : !llvm.ptr -> !llvm.ptr
  %h = builtin.unrealized_conversion_cast %p : !llvm.ptr to !coro.handle<i32>
  return %h : !coro.handle<i32>
}
// For each of the %n handles in %arr: its current value, then resumes it
// until done, counting the resumes, reads its final result and destroys it.
func.func @drain(%arr: !llvm.ptr, %n: i64) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %true = arith.constant true
  %ni = arith.index_cast %n : i64 to index
  %r:3 = scf.for %k = %c0 to %ni step %c1 iter_args(%first = %z, %count = %z, %final = %z) -> (i32, i32, i32) {
    %k64 = arith.index_cast %k : index to i64
    %h = func.call @get(%arr, %k64) : (!llvm.ptr, i64) -> !coro.handle<i32>
    %v0 = "coro.promise"(%h) : (!coro.handle<i32>) -> i32
    %f1 = arith.addi %first, %v0 : i32
    %c = scf.while (%m = %count) : (i32) -> i32 {
      %d = "coro.done"(%h) : (!coro.handle<i32>) -> i1
      %go = arith.xori %d, %true : i1
      scf.condition(%go) %m : i32
    } do {
    ^bb0(%m: i32):
      "coro.resume"(%h) : (!coro.handle<i32>) -> ()
      %m1 = arith.addi %m, %one : i32
      scf.yield %m1 : i32
    }
    %v = "coro.promise"(%h) : (!coro.handle<i32>) -> i32
    "coro.destroy"(%h) : (!coro.handle<i32>) -> ()
    %f2 = arith.addi %final, %v : i32
    scf.yield %f1, %c, %f2 : i32, i32, i32
  }
  return %r#0, %r#1, %r#2 : i32, i32, i32
}
func.func @main() -> (i32, i32, i32) {
  %n = arith.constant 4 : i64
  %arr = llvm.alloca %n x !llvm.ptr : (i64) -> !llvm.ptr
  %i0 = arith.constant 0 : i64
  %i1 = arith.constant 1 : i64
  %i2 = arith.constant 2 : i64
  %i3 = arith.constant 3 : i64
  %v10 = arith.constant 10 : i32
  %v20 = arith.constant 20 : i32
  %v30 = arith.constant 30 : i32
  %v40 = arith.constant 40 : i32
  %a = func.call @sw(%v10) : (i32) -> !coro.handle<i32>
  func.call @put(%arr, %i0, %a) : (!llvm.ptr, i64, !coro.handle<i32>) -> ()
  %b = func.call @rc(%v20) : (i32) -> !coro.handle<i32>
  func.call @put(%arr, %i1, %b) : (!llvm.ptr, i64, !coro.handle<i32>) -> ()
  %c = func.call @once(%v30) : (i32) -> !coro.handle<i32>
  func.call @put(%arr, %i2, %c) : (!llvm.ptr, i64, !coro.handle<i32>) -> ()
  %d = func.call @as(%v40) : (i32) -> !coro.handle<i32>
  func.call @put(%arr, %i3, %d) : (!llvm.ptr, i64, !coro.handle<i32>) -> ()
  %r:3 = func.call @drain(%arr, %n) : (!llvm.ptr, i64) -> (i32, i32, i32)
  return %r#0, %r#1, %r#2 : i32, i32, i32
}
