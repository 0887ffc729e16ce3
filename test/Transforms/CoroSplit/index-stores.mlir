// RUN: coro-opt --coro-lower-switch --coro-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=OUT

// A clone stores a suspension's index only where its frame may hold
// another: NAME.resume entered at landing i and suspending at i again
// (a generator's loop) stores its values and nothing else, as a
// hand-written state machine would. @one's loop has one yield: its resume
// stores no index but the final one (1). @two's loop has two: landing 0
// reaches yield 1 and landing 1 reaches yield 0, so both stores stay.
// Route A (LLVM's split) is the oracle for what the generators yield:
// @one 0+1+2+3 = 6, @two 0+100+1+101+2+102 = 306.
// OUT: {{^}}6306{{$}}

// CHECK-LABEL: llvm.func internal fastcc @one.resume(
// CHECK: %[[IP:.*]] = llvm.getelementptr %{{.*}}[[[IDX:[0-9]+]]]
// CHECK: llvm.load %[[IP]] {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK-NOT: : i8, !llvm.ptr
// CHECK: %[[FINAL:.*]] = llvm.mlir.constant(1 : i8) : i8
// CHECK-NEXT: %[[FP:.*]] = llvm.getelementptr %{{.*}}[[[IDX]]]
// CHECK-NEXT: llvm.store %[[FINAL]], %[[FP]] {alignment = 1 : i64} : i8, !llvm.ptr
// CHECK-NOT: : i8, !llvm.ptr
// CHECK-LABEL: llvm.func internal fastcc @one.destroy(

// CHECK-LABEL: llvm.func internal fastcc @two.resume(
// CHECK: llvm.mlir.constant(0 : i8) : i8
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.store %{{.*}} : i8, !llvm.ptr
// CHECK: llvm.mlir.constant(1 : i8) : i8
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.store %{{.*}} : i8, !llvm.ptr
// CHECK: llvm.mlir.constant(2 : i8) : i8
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.store %{{.*}} : i8, !llvm.ptr
// CHECK-LABEL: llvm.func internal fastcc @two.destroy(

func.func @one(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @two(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c100 = arith.constant 100 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  "coro.yield"(%i) : (i64) -> i1
  %j = arith.addi %i, %c100 : i64
  "coro.yield"(%j) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @sum(%g: !coro.handle<i64>) -> i64 {
  %true = arith.constant true
  %c0 = arith.constant 0 : i64
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

func.func @main() -> i64 {
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c1000 = arith.constant 1000 : i64
  %a = call @one(%c4) : (i64) -> !coro.handle<i64>
  %b = call @two(%c3) : (i64) -> !coro.handle<i64>
  %x = call @sum(%a) : (!coro.handle<i64>) -> i64
  %y = call @sum(%b) : (!coro.handle<i64>) -> i64
  %x1000 = arith.muli %x, %c1000 : i64
  %r = arith.addi %x1000, %y : i64
  return %r : i64
}
