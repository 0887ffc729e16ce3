// RUN: coro-translate %s --route=mlir-split --emit=split-llvm -O2 | FileCheck %s

// Under route B a retcon or async handle's resume entry calls the
// coroutine's continuation directly (the split made them all, so the one
// parked is known to be among them; with one continuation there is nothing
// to test) and LLVM inlines it: a resume is one direct step, as in a
// hand-written state machine (bench/run.sh, rows "retcon B" and "async B").
// What the entry does after the continuation returns is copied for each
// continuation, so a yield's path knows it names nothing to run next.

// The retcon entry: no call of the continuation (there is one, so no
// test: the entry tells LLVM which it is, an llvm.assume that emits no
// code), no stack, and no test of what it returned (its returns reach the
// entry field by field); the yield's path returns the continuation that
// ran, which the control block holds already, so it stores only the
// published value and its own state (settle's %prev, known in the copy
// after the direct call); the only call left transfers to an awaiter once
// the coroutine has ended.
// CHECK-LABEL: define internal fastcc void @gen_retcon.coro.resume(
// CHECK-NOT: alloca
// CHECK-NOT: call {{.*}}@gen_retcon.coro.ramp.resume.0(
// CHECK-NOT: br i1 %{{.*}}, label
// CHECK: icmp eq ptr %{{.*}}, @gen_retcon.coro.ramp.resume.0
// CHECK-NEXT: call void @llvm.assume
// CHECK-NOT: store ptr @gen_retcon.coro.ramp.resume.0
// CHECK-NOT: call {
// CHECK-NOT: extractvalue
// CHECK: musttail call fastcc void
// CHECK-NEXT: ret void
// CHECK: }
func.func @gen_retcon(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
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

// The async entry: the continuation is inlined, not called through the
// parked pointer (the entry tells LLVM which it is: an llvm.assume, no
// test), and the body's check of the destroying word (at -16) after its
// suspension is gone: the entry resumes no task being destroyed. The
// yield parks where the task was resumed: under route B the park stores
// only another function (__coro_async_park), so nothing is stored.
// CHECK-LABEL: define internal fastcc void @gen_async.coro.resume(
// CHECK-NOT: call swifttailcc void @gen_async.coro.async.resume.0(
// CHECK-NOT: i64 -16
// CHECK: icmp eq ptr %{{.*}}, @gen_async.coro.async.resume.0
// CHECK-NEXT: call void @llvm.assume
// CHECK-NOT: store ptr @gen_async.coro.async.resume.0
// CHECK-NOT: i64 -16
// CHECK: }
func.func @gen_async(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
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
