// RUN: coro-opt %s --coro-lower --coro-split | FileCheck %s
// RUN: coro-opt %s --coro-lower --coro-split | FileCheck %s --check-prefix=FIVE
// RUN: sed -e 's/module attributes {coro.route = "mlir-split"} {/module {/' %s \
// RUN:   | coro-opt --coro-lower --coro-split | FileCheck %s --check-prefix=ROUTEA
// RUN: sed -e 's/module attributes {coro.route = "mlir-split"} {/module {/' %s \
// RUN:   | coro-opt --coro-lower --coro-split | FileCheck %s --check-prefix=NOTA
// RUN: coro-translate %s --route=mlir-split --emit=split-llvm -O2 | FileCheck %s --check-prefix=O2

// Route B's async resume entry (a module marked coro.route =
// "mlir-split") calls the parked continuation through
// __coro_async_run_parked, marked coro.continuation_of; --coro-split
// tests the continuation and tail-calls its entered form, a fastcc copy
// in which each dispatch function's tail call calls the dispatch's
// entered form (coro.entered). Only the dispatch functions that may hand
// off to another ABI give the task a handoff slot, so a resume that parks
// again touches no stack (docs/route-b.md, async).

// CHECK-LABEL: llvm.func internal swifttailcc @__coro_async_park(
// CHECK-SAME: coro.entered = @__coro_async_park.entered
// CHECK-LABEL: llvm.func internal swifttailcc @__coro_async_finish(
// CHECK-SAME: coro.entered = @__coro_async_finish.entered

// The entered forms: park's only calls it; finish's gives the task a slot,
// calls it and tail-calls what it left; await's returns what it left.
// CHECK-LABEL: llvm.func internal fastcc @__coro_async_park.entered(
// CHECK-NEXT: llvm.call swifttailcc @__coro_async_park(%arg0, %arg1)
// CHECK-NEXT: llvm.return
// CHECK-LABEL: llvm.func internal fastcc @__coro_async_await.entered(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: llvm.call swifttailcc @__coro_async_await(%arg0, %arg1, %arg2)
// CHECK-NEXT: %[[LEFT:.*]] = llvm.load %[[SLOT]]
// CHECK-NEXT: llvm.return %[[LEFT]] : !llvm.ptr
// CHECK-LABEL: llvm.func internal fastcc @__coro_async_finish.entered(
// CHECK: %[[FSLOT:.*]] = llvm.alloca
// CHECK: llvm.call swifttailcc @__coro_async_finish(%arg0)
// CHECK: llvm.load %[[FSLOT]]
// CHECK: llvm.call fastcc musttail

// A task the runtime has seen has this one as its resume entry (its seen
// entry, which the runtime puts in place: coro-runtime/Runtime.h), out of
// line; it looks at the state word, which a park may have cleared again.
// CHECK-LABEL: llvm.func internal fastcc @__coro_async_resume_known(
// CHECK-SAME: no_inline
// CHECK: llvm.getelementptr %arg0[-80]
// CHECK: llvm.call @coro_rt_task_enter(%arg0)
// CHECK: llvm.call fastcc @__coro_async_run_parked(

// The resume entry: the runtime never saw the task (said to LLVM), no
// slot, the continuation's entered form tail-called.
// CHECK-LABEL: llvm.func internal fastcc @gen.coro.resume(
// CHECK-NOT: llvm.alloca
// CHECK: %[[SP:.*]] = llvm.getelementptr %arg0[-80]
// CHECK-NEXT: %[[S:.*]] = llvm.load %[[SP]]
// CHECK-NEXT: %[[Z0:.*]] = llvm.mlir.constant(0 : i64)
// CHECK-NEXT: %[[UNSEEN:.*]] = llvm.icmp "eq" %[[S]], %[[Z0]]
// CHECK-NEXT: llvm.intr.assume %[[UNSEEN]]
// CHECK-NOT: coro_rt_task_enter
// CHECK: %[[PARKED:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[CONT:.*]] = llvm.mlir.addressof @gen.coro.async.resume.0
// CHECK-NEXT: %[[IS:.*]] = llvm.icmp "eq" %[[PARKED]], %[[CONT]]
// CHECK-NEXT: llvm.intr.assume %[[IS]]
// CHECK-NEXT: llvm.call fastcc musttail @gen.coro.async.resume.0.entered(%arg0)
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }

// The entry function gives the task its seen entry, before the resume
// entry in the header.
// CHECK-LABEL: llvm.func @gen(
// CHECK: %[[KNOWN:.*]] = llvm.mlir.addressof @__coro_async_resume_known
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[H:.*]][-96]
// CHECK-NEXT: llvm.store %[[KNOWN]], %[[AT]]
// CHECK-NEXT: %[[OWN:.*]] = llvm.mlir.addressof @gen.coro.resume
// CHECK-NEXT: llvm.store %[[OWN]], %[[H]]

// @sum's continuation awaits: the entered form of the await returns the
// handle to run next, which the continuation's entered form tail-calls.
// CHECK-LABEL: llvm.func internal fastcc @sum.coro.resume(
// CHECK: llvm.call fastcc musttail @sum.coro.async.resume.0.entered(%arg0)

// The generator's continuation, entered: the yield's park is a call of
// park's entered form and a return; the end tail-calls finish's.
// CHECK-LABEL: llvm.func internal fastcc @gen.coro.async.resume.0.entered(
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call fastcc @__coro_async_park.entered(%{{.*}}, %{{.*}})
// CHECK-NEXT: llvm.return
// CHECK: llvm.call fastcc musttail @__coro_async_finish.entered(%{{.*}})
// CHECK-NEXT: llvm.return

// CHECK-LABEL: llvm.func internal fastcc @sum.coro.async.resume.0.entered(
// CHECK: %[[N:.*]] = llvm.call fastcc @__coro_async_await.entered(
// CHECK-NEXT: %[[Z:.*]] = llvm.mlir.zero
// CHECK-NEXT: %[[NONE:.*]] = llvm.icmp "eq" %[[N]], %[[Z]]
// CHECK-NEXT: llvm.cond_br %[[NONE]], ^[[RET:.*]], ^[[GO:[^ ]*]]
// CHECK: ^[[RET]]:
// CHECK-NEXT: llvm.return
// CHECK: ^[[GO]]:
// CHECK-NEXT: %[[F:.*]] = llvm.load %[[N]]
// CHECK-NEXT: llvm.call fastcc musttail %[[F]](%[[N]])

// More continuations than the split tests (five): the call of
// __coro_async_run_parked stays, with its slot, and its mark goes.
// FIVE-LABEL: llvm.func internal fastcc @five.coro.resume(
// FIVE: %[[N:.*]] = llvm.call fastcc @__coro_async_run_parked(%arg0, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
// FIVE-NOT: coro.continuation_of
// FIVE: llvm.call fastcc musttail
// FIVE-NOT: five.coro.async.resume.0.entered

// Route A has none of it: the entry gives the task its slot and looks at
// the state word, and the task has no seen entry.
// NOTA-NOT: coro.entered
// NOTA-NOT: .entered
// NOTA-NOT: __coro_async_resume_known
// ROUTEA-LABEL: llvm.func internal fastcc @gen.coro.resume(
// ROUTEA: llvm.alloca
// ROUTEA: llvm.call @coro_rt_task_enter

// At -O2 (after the pre-split trip, which keeps the entered forms) LLVM
// inlines the entered continuation: the resume entry keeps no slot, does
// not read the state word (the park's look at it folds), and its only
// call is the end's tail call.
// O2-LABEL: define internal fastcc void @gen.coro.resume(
// O2-NOT: alloca
// O2-NOT: {{^  (%.* = )?call }}
// O2-NOT: i64 -80
// O2: call fastcc void @__coro_async_finish.entered(
// O2-NEXT: ret void
// O2-NOT: i64 -80
// O2: {{^}}}

module attributes {coro.route = "mlir-split"} {
func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
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

func.func @sum(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %g = func.call @gen(%n) : (i64) -> !coro.handle<i64>
  %v = "coro.await"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @five() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  "coro.yield"(%c1) : (i64) -> i1
  "coro.yield"(%c1) : (i64) -> i1
  "coro.yield"(%c1) : (i64) -> i1
  "coro.yield"(%c1) : (i64) -> i1
  "coro.yield"(%c1) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
}
