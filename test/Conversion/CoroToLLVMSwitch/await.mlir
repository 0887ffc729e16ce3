// RUN: coro-opt %s --convert-coro-to-llvm-switch | FileCheck %s

// coro.await: a finished awaited coroutine does not suspend; otherwise the
// awaiter saves, hands control to the awaited coroutine through
// llvm.coro.await.suspend.handle (the wrapper records the awaiter as its
// continuation) and suspends. Resumed, it checks again: an awaited
// coroutine that has only yielded is driven again, and the awaiter goes on
// only once it has ended. The result is read from the awaited promise.

// CHECK-LABEL: func.func @awaiter
// CHECK-SAME: (%[[CHILD:.*]]: !llvm.ptr) -> !llvm.ptr
// CHECK: %[[HDL:.*]] = llvm.intr.coro.begin
// CHECK: ^[[CHECK:bb[0-9]+]]: // 2 preds
// CHECK-NEXT: %[[DONE:.*]] = llvm.call_intrinsic "llvm.coro.done"(%[[CHILD]]) : (!llvm.ptr) -> i1
// CHECK: llvm.cond_br %[[DONE]], ^[[NEXT:.*]], ^[[SUSP:[^ ]*]]
// CHECK: ^[[SUSP]]:
// CHECK: %[[SAVE:.*]] = llvm.intr.coro.save %[[HDL]]
// CHECK: %[[FN:.*]] = llvm.mlir.addressof @__coro_switch_await
// CHECK: llvm.call_intrinsic "llvm.coro.await.suspend.handle"(%[[CHILD]], %[[HDL]], %[[FN]])
// CHECK: %[[S:.*]] = llvm.intr.coro.suspend %[[SAVE]]
// CHECK: llvm.switch %[[S]] : i8, ^{{.*}} [
// CHECK-NEXT: 0: ^[[CHECK]],
// CHECK-NEXT: 1: ^[[CLEANUP:[^ ]*]]
// CHECK: ^[[NEXT]]:
// CHECK: %[[ALIGN:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[P:.*]] = llvm.intr.coro.promise %[[CHILD]], %[[ALIGN]]
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[P]][0, 1] {{.*}} !llvm.struct<(ptr, f64)>
// CHECK: %[[R:.*]] = llvm.load %[[SLOT]] {alignment = 8 : i64} : !llvm.ptr -> f64
// CHECK: llvm.store %[[R]]
func.func @awaiter(%child: !coro.handle<f64>) -> !coro.handle<f64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f64>
  %r = "coro.await"(%child) : (!coro.handle<f64>) -> f64
  "coro.end"(%h, %r) : (!coro.handle<f64>, f64) -> ()
  return %h : !coro.handle<f64>
}

// coro.self is the coro.begin handle.
// CHECK-LABEL: func.func @self
// CHECK: %[[HDL:.*]] = llvm.intr.coro.begin
// CHECK: llvm.call_intrinsic "llvm.coro.done"(%[[HDL]])
func.func @self() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %s = "coro.self"() : () -> !coro.handle<none>
  %d = "coro.done"(%s) : (!coro.handle<none>) -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
