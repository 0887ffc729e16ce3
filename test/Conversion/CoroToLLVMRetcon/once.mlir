// RUN: coro-opt %s --convert-coro-to-llvm-retcon-once | FileCheck %s

// retcon.once: coro.id.retcon.once; the final value goes to the promise and
// to LLVM's coro.end.results (the continuation returns it: the prototype
// returns i64). Allocators that are func.func get llvm.func adapters,
// since coro.id.retcon.once takes function pointers.

// CHECK-DAG: llvm.func @llvm.coro.end.results(...) -> !llvm.token
// CHECK-DAG: llvm.func @llvm.coro.suspend.retcon.i1(...) -> i1
// CHECK-LABEL: func.func private @cell.coro.ramp
// CHECK: %[[ALLOC:.*]] = llvm.mlir.addressof @cell.coro.alloc
// CHECK: %[[FREE:.*]] = llvm.mlir.addressof @cell.coro.free
// CHECK: llvm.call_intrinsic "llvm.coro.id.retcon.once"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ALLOC]], %[[FREE]])
// Awaiting: a finished coroutine still suspends (every retcon.once path
// suspends exactly once), naming itself as what runs next; an unfinished
// one gets this coroutine as its continuation. Once resumed, the coroutine
// clears that continuation and drives the awaited one to its end.
// CHECK: %[[DONE:.*]] = llvm.call_intrinsic "llvm.coro.done"(%[[AW:[^)]*]])
// CHECK: llvm.cond_br %[[DONE]], ^[[AGAIN:.*]], ^[[SUSP:[^ ]*]]
// What runs next is the suspension's second value.
// CHECK: ^[[AGAIN]]:
// CHECK: llvm.getelementptr %[[SELF:[0-9a-z_]+]][16]
// CHECK: llvm.call @llvm.coro.suspend.retcon.i1(%{{.*}}, %[[SELF]]) vararg(!llvm.func<i1 (...)>) : (i64, !llvm.ptr) -> i1
// CHECK: llvm.cond_br %{{.*}}, ^[[END:.*]](%{{.*}} : i64), ^[[DRIVE:[^ ]*]]
// CHECK: llvm.cond_br %{{.*}}, ^[[JOIN:.*]](%{{.*}} : !llvm.ptr), ^[[LINK:[^ ]*]]
// CHECK: ^[[LINK]]:
// CHECK: %[[P:.*]] = llvm.getelementptr %[[AW]][16]
// CHECK: llvm.cmpxchg %[[P]], %{{.*}}, %[[SELF]] acq_rel acquire
// CHECK: llvm.cond_br %{{.*}}, ^[[GO:.*]], ^{{.*}}
// CHECK: llvm.cond_br %{{.*}}, ^[[ENDED:.*]], ^{{.*}}
// CHECK: llvm.store %[[SELF]], %[[P]]
// CHECK: ^[[GO]]:
// CHECK: llvm.br ^[[JOIN]](%[[AW]] : !llvm.ptr)
// CHECK: ^[[ENDED]]:
// CHECK: llvm.br ^[[JOIN]](%[[SELF]] : !llvm.ptr)
// CHECK: ^[[JOIN]](%[[NEXT:.*]]: !llvm.ptr):
// CHECK: llvm.call @llvm.coro.suspend.retcon.i1(%{{.*}}, %[[NEXT]]) vararg(!llvm.func<i1 (...)>) : (i64, !llvm.ptr) -> i1
// CHECK: llvm.cond_br %{{.*}}, ^[[END]](%{{.*}} : i64), ^[[DRIVE]]
// CHECK: ^[[DCHECK:bb[0-9]+]]:
// CHECK: %[[ENDED:.*]] = llvm.call_intrinsic "llvm.coro.done"(%[[AW]])
// CHECK: llvm.cond_br %[[ENDED]], ^[[NEXT:.*]], ^[[DRES:[^ ]*]]
// CHECK: ^[[DRES]]:
// CHECK-NEXT: llvm.intr.coro.resume %[[AW]]
// CHECK-NEXT: llvm.br ^[[DCHECK]]
// An await that can never continue (on itself, on coro.noop) traps there.
// CHECK: ^[[DRIVE]]:
// CHECK: %[[NOP:.*]] = llvm.call_intrinsic "llvm.coro.noop"()
// CHECK: llvm.icmp "eq" %{{.*}}, %[[NOP]]
// CHECK: llvm.cond_br %{{.*}}, ^[[TRAP:.*]], ^[[GO:[^ ]*]]
// CHECK: ^[[TRAP]]:
// CHECK-NEXT: llvm.intr.trap
// CHECK-NEXT: llvm.unreachable
// CHECK: ^[[GO]]:
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.br ^[[DCHECK]]
// CHECK: ^[[END]](%[[V:.*]]: i64):
// CHECK: %[[TOK:.*]] = llvm.call @llvm.coro.end.results(%[[V]]) vararg(!llvm.func<token (...)>) : (i64) -> !llvm.token
// CHECK: llvm.call_intrinsic "llvm.coro.end"(%{{.*}}, %{{.*}}, %[[TOK]])
// CHECK: llvm.func @cell.coro.proto(!llvm.ptr, i1) -> i64
// CHECK-LABEL: llvm.func internal @cell.coro.alloc
// CHECK: func.call @my_alloc
// CHECK-LABEL: llvm.func internal @cell.coro.free
// CHECK: func.call @my_free
// The control block comes from the same allocator.
// CHECK-LABEL: func.func @cell
// CHECK: call @my_alloc
func.func @cell(%a: !coro.handle<i64>) -> !coro.handle<i64> attributes {coro.abi = "retcon.once", coro.alloc_fn = @my_alloc, coro.free_fn = @my_free} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
func.func private @my_alloc(i64) -> !llvm.ptr
func.func private @my_free(!llvm.ptr)
