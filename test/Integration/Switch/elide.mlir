// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-translate --route=llvm %s --emit=llvm | FileCheck %s --check-prefix=IR
// RUN: coro-translate --route=llvm %s --emit=split-llvm -O2 | FileCheck %s --check-prefix=O2
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s
// RUN: coro-translate %s --route=mlir-split --emit=llvm -O0 | FileCheck %s --check-prefix=B
// RUN: coro-opt --coro-lower-switch --coro-split --remarks-filter=coro-elide %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// coro.alloc = "elide": the ramp is marked alwaysinline, so at -O1 and
// above it is inlined into its caller after CoroSplit and CoroElide puts
// the frame on the caller's stack; at -O0 the frame stays on the heap.
// Route B (--coro-split) puts the frame in the caller itself, at every -O
// level: main gets an alloca of the frame's size and alignment and calls
// gen.elided, a ramp that takes the frame instead of allocating one (and
// whose handle destroys through gen.cleanup, which frees nothing).
// The result is the same either way: 0 + 1 + ... + 9 = 45.
// B-LABEL: define i32 @main(
// B: %[[F:.*]] = alloca [48 x i8], i64 1, align 16
// B: call ptr @gen.elided(i32 10, ptr %[[F]])
// B-LABEL: define internal ptr @gen.elided(
// B-NOT: alloc
// B: store ptr @gen.cleanup
// B-NOT: alloc
// B: ret ptr
// REMARK: elide.mlir:[[# @LINE + 38]]:8: remark: 'gen' elided in 'main'
// CHECK: 45
// IR: define ptr @gen(i32 %{{.*}}) #[[ATTRS:[0-9]+]]
// IR: attributes #[[ATTRS]] = { alwaysinline presplitcoroutine }
// O2-LABEL: define {{.*}} @main(
// O2-NOT: malloc
// O2: store volatile
// O2-NOT: malloc
// O2: ret i32
func.func @gen(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^loop(%c0 : i32)
^loop(%i: i32):
  %more = arith.cmpi slt, %i, %n : i32
  cf.cond_br %more, ^body, ^done
^body:
  %destroyed = "coro.yield"(%i) : (i32) -> i1
  %next = arith.addi %i, %c1 : i32
  cf.cond_br %destroyed, ^done, ^loop(%next : i32)
^done:
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// Keeps each value observable (a volatile store) so the loop cannot fold.
llvm.mlir.global internal @seen(0 : i32) : i32
func.func @sink(%v: i32) {
  %g = llvm.mlir.addressof @seen : !llvm.ptr
  llvm.store volatile %v, %g : i32, !llvm.ptr
  return
}

func.func @main() -> i32 {
  %n = arith.constant 10 : i32
  %zero = arith.constant 0 : i32
  %true = arith.constant true
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  %sum = scf.while (%acc = %zero) : (i32) -> i32 {
    %done = "coro.done"(%g) : (!coro.handle<i32>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i32
  } do {
  ^bb0(%acc: i32):
    %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
    func.call @sink(%v) : (i32) -> ()
    %s = arith.addi %acc, %v : i32
    "coro.resume"(%g) : (!coro.handle<i32>) -> ()
    scf.yield %s : i32
  }
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return %sum : i32
}
