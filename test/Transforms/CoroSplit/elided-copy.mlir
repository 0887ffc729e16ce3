// RUN: coro-opt %s --coro-lower-switch --coro-split | FileCheck %s
// RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
// RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
// RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

// NAME.elided is the finished ramp with llvm.coro.alloc false and the frame
// given: the split rewrites the ramp once, with both left open, then copies
// it and decides each copy. @watcher awaits a coroutine that has ended in
// its ramp and drops the result: NAME.elided, swept once decided, does not
// read it; only the ramp allocates and stores NAME.destroy (NAME.elided
// stores NAME.cleanup: its caller owns the frame). @main runs one watcher
// on the heap (@make returns its handle) and one in @local's frame.

// CHECK-LABEL: llvm.func @watcher(
// CHECK: llvm.call @malloc(
// CHECK: llvm.mlir.addressof @watcher.destroy
// CHECK: llvm.return
// CHECK-NEXT: }
// CHECK-LABEL: llvm.func internal @watcher.elided(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %[[FRAME:.*]]: !llvm.ptr) -> !llvm.ptr
// CHECK-NOT: @malloc
// CHECK-NOT: -> i32
// CHECK-NOT: @watcher.destroy
// CHECK: llvm.store %{{.*}}, %[[FRAME]]
// CHECK-NOT: @malloc
// CHECK-NOT: -> i32
// CHECK: llvm.mlir.addressof @watcher.cleanup
// CHECK-NOT: @malloc
// CHECK-NOT: -> i32
// CHECK: llvm.return
// CHECK-NEXT: }
// 100 * (heap watcher done) + 10 * (elided watcher done) + the value
// OUT: 117

func.func @value(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @watcher(%h: !coro.handle<i32>) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %me = "coro.begin"() : () -> !coro.handle<none>
  "coro.await"(%h) : (!coro.handle<i32>) -> i32
  "coro.yield"() : () -> i1
  "coro.end"(%me) : (!coro.handle<none>) -> ()
  return %me : !coro.handle<none>
}

func.func @local(%n: i32) -> i1 {
  %v = call @value(%n) : (i32) -> !coro.handle<i32>
  %w = call @watcher(%v) : (!coro.handle<i32>) -> !coro.handle<none>
  "coro.resume"(%w) : (!coro.handle<none>) -> ()
  %d = "coro.done"(%w) : (!coro.handle<none>) -> i1
  "coro.destroy"(%w) : (!coro.handle<none>) -> ()
  "coro.destroy"(%v) : (!coro.handle<i32>) -> ()
  return %d : i1
}

func.func @main() -> i32 {
  %c7 = arith.constant 7 : i32
  %v = call @value(%c7) : (i32) -> !coro.handle<i32>
  %r = "coro.promise"(%v) : (!coro.handle<i32>) -> i32
  %w = call @make(%v) : (!coro.handle<i32>) -> !coro.handle<none>
  "coro.resume"(%w) : (!coro.handle<none>) -> ()
  %d = "coro.done"(%w) : (!coro.handle<none>) -> i1
  "coro.destroy"(%w) : (!coro.handle<none>) -> ()
  "coro.destroy"(%v) : (!coro.handle<i32>) -> ()
  %l = call @local(%c7) : (i32) -> i1
  %d32 = arith.extui %d : i1 to i32
  %l32 = arith.extui %l : i1 to i32
  %c100 = arith.constant 100 : i32
  %c10 = arith.constant 10 : i32
  %a = arith.muli %d32, %c100 : i32
  %b = arith.muli %l32, %c10 : i32
  %s = arith.addi %a, %b : i32
  %t = arith.addi %s, %r : i32
  return %t : i32
}

func.func @make(%v: !coro.handle<i32>) -> !coro.handle<none> {
  %w = call @watcher(%v) : (!coro.handle<i32>) -> !coro.handle<none>
  return %w : !coro.handle<none>
}
