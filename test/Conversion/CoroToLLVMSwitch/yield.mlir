// RUN: coro-opt %s --split-input-file --convert-coro-to-llvm-switch | FileCheck %s

// coro.yield with its destroyed flag used: the destroy edge records the flag
// (for coro.end) and continues the body with `true`; resume continues with
// `false`; the default edge returns to the resumer.

// CHECK-LABEL: func.func @used
// CHECK: %[[PROMISE:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i64)>
// CHECK: %[[FLAG:.*]] = llvm.alloca
// CHECK: %[[HDL:.*]] = llvm.intr.coro.begin
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[PROMISE]][0, 1]
// CHECK: llvm.store %{{.*}}, %[[SLOT]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK: %[[SAVE:.*]] = llvm.intr.coro.save %[[HDL]]
// CHECK: %[[FALSE:.*]] = llvm.mlir.constant(false) : i1
// CHECK: %[[S:.*]] = llvm.intr.coro.suspend %[[SAVE]], %[[FALSE]] : i8
// CHECK: %[[NO:.*]] = llvm.mlir.constant(false) : i1
// CHECK: llvm.switch %[[S]] : i8, ^[[RET:.*]] [
// CHECK-NEXT: 0: ^[[NEXT:.*]](%[[NO]] : i1),
// CHECK-NEXT: 1: ^[[DESTROY:[^ ]*]]
// CHECK: ^[[DESTROY]]:
// CHECK: %[[YES:.*]] = llvm.mlir.constant(true) : i1
// CHECK: llvm.store %[[YES]], %[[FLAG]]
// CHECK: llvm.br ^[[NEXT]](%[[YES]] : i1)
// CHECK: ^[[NEXT]](%[[D:.*]]: i1):
// CHECK: cf.cond_br %[[D]]
func.func @used(%v: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%v) : (i64) -> i1
  cf.cond_br %d, ^end, ^more
^more:
  "coro.yield"(%v) : (i64) -> i1
  cf.br ^end
^end:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// -----

// With the flag unused, destruction goes straight to the cleanup block.

// CHECK-LABEL: func.func @unused
// CHECK: %[[S:.*]] = llvm.intr.coro.suspend
// CHECK: llvm.switch %[[S]] : i8, ^[[RET:.*]] [
// CHECK-NEXT: 0: ^[[NEXT:[^,]*]],
// CHECK-NEXT: 1: ^[[CLEANUP:[^ ]*]]
// CHECK: ^[[NEXT]]:
// CHECK: ^[[CLEANUP]]:
// CHECK-NEXT: llvm.intr.coro.free
func.func @unused() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.yield"() : () -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
