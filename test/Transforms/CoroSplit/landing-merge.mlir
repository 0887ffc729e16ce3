// RUN: coro-opt --coro-lower-switch --coro-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=OUT

// A clone's landing (the reloads after a suspension, then its tail) goes
// at the front of the block the suspension continues with when that
// block's only predecessor is the suspension's block: the dispatch
// branches straight to it, and the accesses the block makes later take the
// landing's field addresses, so that a straight line of suspensions
// reloads and stores each field through one address per block. @chain
// keeps %x across both of its first two suspensions: resumed at 0, its
// block reloads %x and stores it again through the same address. Route A
// is the oracle for what it yields: 2 + 7 + (7 + 22) = 38.
// OUT: {{^}}38{{$}}

// CHECK-LABEL: llvm.func internal fastcc @chain.resume(
// CHECK: llvm.switch %{{[0-9]+}} : i8, ^{{bb[0-9]+}} [
// CHECK-NEXT: 0: ^[[B0:bb[0-9]+]],
// CHECK-NEXT: 1: ^[[B1:bb[0-9]+]],
// CHECK: ^[[B0]]:  // pred: ^bb0
// CHECK-NEXT: %[[P:[0-9]+]] = llvm.getelementptr %arg0[[[OFF:[0-9]+]]]
// CHECK-NEXT: %[[X:[0-9]+]] = llvm.load %[[P]]
// CHECK-NEXT: llvm.call @step(%[[X]])
// CHECK-NOT: ^bb
// CHECK: llvm.store %[[X]], %[[P]]
// CHECK: ^[[B1]]:  // pred: ^bb0
// CHECK-NEXT: llvm.getelementptr %arg0[[[OFF]]]
// CHECK-NEXT: llvm.load

// A dispatch whose every case is a plain branch to one block reads no
// index: @count's lone suspension continues with the loop's header, and
// @count.resume branches there without loading the index (at 24).
// @count.cleanup frees (null) on its case: its dispatch stays.
// CHECK-LABEL: llvm.func internal fastcc @count.resume(
// CHECK-NOT: llvm.switch
// CHECK-NOT: %arg0[24]
// CHECK: llvm.return
// CHECK-NEXT: }
// CHECK-LABEL: llvm.func internal fastcc @count.cleanup(
// CHECK: %arg0[24]
// CHECK: llvm.switch

func.func private @step(%x: i64) -> i64 {
  %c3 = arith.constant 3 : i64
  %c1 = arith.constant 1 : i64
  %m = arith.muli %x, %c3 : i64
  %r = arith.addi %m, %c1 : i64
  return %r : i64
}

func.func @chain(%a: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %x = call @step(%a) : (i64) -> i64
  "coro.yield"(%a) : (i64) -> i1
  %y = call @step(%x) : (i64) -> i64
  "coro.yield"(%x) : (i64) -> i1
  %z = arith.addi %x, %y : i64
  "coro.yield"(%z) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> i64 {
  %true = arith.constant true
  %c0 = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  %g = call @chain(%c2) : (i64) -> !coro.handle<i64>
  %r = scf.while (%acc = %c0) : (i64) -> i64 {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i64
  } do {
  ^bb0(%acc: i64):
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %acc2 = arith.addi %acc, %v : i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield %acc2 : i64
  }
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %r : i64
}

llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)

llvm.func @count(%n: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %promise = llvm.alloca %one x i64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
  %id = llvm.intr.coro.id %c0, %promise, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.intr.coro.size : i64
  %mem = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.intr.coro.begin %id, %mem : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.store %n, %promise : i64, !llvm.ptr
  llvm.br ^loop
^loop:
  %v = llvm.load %promise : !llvm.ptr -> i64
  %next = llvm.add %v, %one : i64
  llvm.store %next, %promise : i64, !llvm.ptr
  %save = llvm.intr.coro.save %hdl : (!llvm.ptr) -> !llvm.token
  %s = llvm.intr.coro.suspend %save, %false : i8
  llvm.switch %s : i8, ^end [
    0: ^loop,
    1: ^cleanup
  ]
^cleanup:
  %f = llvm.intr.coro.free %id, %hdl : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^end
^end:
  %none = llvm.mlir.none : !llvm.token
  %u = llvm.intr.coro.end %hdl, %false, %none : (!llvm.ptr, i1, !llvm.token) -> i1
  llvm.return %hdl : !llvm.ptr
}
