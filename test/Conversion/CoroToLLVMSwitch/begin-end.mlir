// RUN: coro-opt %s --convert-coro-to-llvm-switch | FileCheck %s

// coro.begin becomes coro.id / coro.alloc / coro.size / malloc / coro.begin;
// coro.end stores the final result in the promise and suspends for the last
// time; one cleanup block frees the frame and one suspend-return block
// returns the handle.

// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @free(!llvm.ptr)
// CHECK-LABEL: func.func @answer
// CHECK-SAME: (%[[X:.*]]: i32) -> !llvm.ptr
// CHECK-SAME: passthrough = ["presplitcoroutine"]
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[PROMISE:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, i32)> {alignment = 16 : i64}
// CHECK: %[[FLAG:.*]] = llvm.alloca %[[ONE]] x i1
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[ID:.*]] = llvm.intr.coro.id %{{.*}}, %[[PROMISE]], %[[NULL]], %[[NULL]]
// CHECK: %[[NEED:.*]] = llvm.call_intrinsic "llvm.coro.alloc"(%[[ID]]) : (!llvm.token) -> i1
// CHECK: llvm.cond_br %[[NEED]], ^[[ALLOC:.*]], ^[[BEGIN:.*]](%[[NULL]] : !llvm.ptr)
// CHECK: ^[[ALLOC]]:
// CHECK: %[[SIZE:.*]] = llvm.intr.coro.size : i64
// CHECK: %[[MEM:.*]] = llvm.call @malloc(%[[SIZE]])
// CHECK: llvm.br ^[[BEGIN]](%[[MEM]] : !llvm.ptr)
// CHECK: ^[[BEGIN]](%[[M:.*]]: !llvm.ptr):
// CHECK: %[[HDL:.*]] = llvm.intr.coro.begin %[[ID]], %[[M]]
// CHECK: %[[CONT:.*]] = llvm.getelementptr %[[PROMISE]][0, 0]
// CHECK: llvm.store %{{.*}}, %[[CONT]]
// CHECK: llvm.store %{{.*}}, %[[FLAG]]
// CHECK: ^{{.*}}:
// CHECK: %[[VAL:.*]] = llvm.getelementptr %[[PROMISE]][0, 1]
// CHECK: llvm.store %[[X]], %[[VAL]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: %[[DESTROYING:.*]] = llvm.load %[[FLAG]]
// CHECK: llvm.cond_br %[[DESTROYING]], ^[[CLEANUP:.*]], ^[[FINAL:.*]]
// CHECK: ^[[FINAL]]:
// CHECK: %[[SAVE:.*]] = llvm.intr.coro.save %[[HDL]]
// CHECK: %[[FN:.*]] = llvm.mlir.addressof @__coro_switch_final
// CHECK: llvm.call_intrinsic "llvm.coro.await.suspend.handle"(%[[HDL]], %[[HDL]], %[[FN]])
// CHECK: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK: %[[S:.*]] = llvm.intr.coro.suspend %[[SAVE]], %[[TRUE]] : i8
// CHECK: llvm.switch %[[S]] : i8, ^[[RET:.*]] [
// CHECK-NEXT: 0: ^[[UNREACHABLE:[^,]*]],
// CHECK-NEXT: 1: ^[[CLEANUP]]
// CHECK: ^[[CLEANUP]]:
// CHECK: %[[FREE:.*]] = llvm.intr.coro.free %[[ID]], %[[HDL]]
// CHECK: llvm.icmp "ne" %[[FREE]]
// CHECK: llvm.call @free(%[[FREE]])
// CHECK: ^[[RET]]:
// CHECK: %[[NONE:.*]] = llvm.mlir.none : !llvm.token
// CHECK: llvm.call_intrinsic "llvm.coro.end"(%[[HDL]], %{{.*}}, %[[NONE]]) : (!llvm.ptr, i1, !llvm.token) -> ()
// CHECK-NEXT: return %[[HDL]] : !llvm.ptr
// CHECK: ^[[UNREACHABLE]]:
// CHECK-NEXT: llvm.unreachable
func.func @answer(%x: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.end"(%h, %x) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// The wrappers symmetric transfer calls: an await records the awaiter as
// the continuation (a compare-and-swap from null; over another awaiter, a
// store) and transfers to the awaited handle, or, where the continuation
// says a scheduled task has ended (a tag bit, 1 or 2, set), resumes the
// awaiter at once; the
// final suspension runs the continuation, or llvm.coro.noop when nobody
// awaits.
// CHECK-LABEL: llvm.func internal @__coro_switch_await
// CHECK-SAME: (%[[AW:.*]]: !llvm.ptr, %[[SELF:.*]]: !llvm.ptr) -> !llvm.ptr
// CHECK: %[[P:.*]] = llvm.getelementptr %[[AW]][16]
// CHECK: %[[R:.*]] = llvm.cmpxchg %[[P]], %{{.*}}, %[[SELF]] acq_rel acquire
// CHECK: %[[OK:.*]] = llvm.extractvalue %[[R]][1]
// CHECK: llvm.cond_br %[[OK]], ^[[GO:.*]], ^[[TAKEN:[^ ]*]]
// CHECK: ^[[TAKEN]]:
// CHECK: %[[OLD:.*]] = llvm.extractvalue %[[R]][0]
// CHECK: %[[OLDI:.*]] = llvm.ptrtoint %[[OLD]]
// CHECK: %[[TAGS:.*]] = llvm.mlir.constant(3 : i64)
// CHECK: %[[TAG:.*]] = llvm.and %[[OLDI]], %[[TAGS]]
// CHECK: %[[IS:.*]] = llvm.icmp "ne" %[[TAG]], %{{.*}}
// CHECK: llvm.cond_br %[[IS]], ^[[ENDED:.*]], ^[[OVER:[^ ]*]]
// CHECK: ^[[OVER]]:
// CHECK: llvm.store %[[SELF]], %[[P]]
// CHECK: llvm.br ^[[GO]]
// CHECK: ^[[GO]]:
// CHECK: llvm.return %[[AW]]
// CHECK: ^[[ENDED]]:
// CHECK: llvm.return %[[SELF]]
// CHECK-LABEL: llvm.func internal @__coro_switch_final
// CHECK: llvm.call_intrinsic "llvm.coro.noop"()
