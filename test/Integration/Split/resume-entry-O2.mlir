// RUN: coro-translate %s --route=mlir-split --emit=split-llvm -O2 | FileCheck %s
// RUN: coro-translate %s --route=mlir-split --emit=split-llvm -O2 | FileCheck %s --check-prefix=ASYNC
// RUN: coro-translate %s --route=mlir-split --emit=split-llvm -O2 | FileCheck %s --check-prefix=PARTS

// Under route B a retcon or async handle's resume entry calls the
// coroutine's continuation directly (the split made them all, so the one
// parked is known to be among them; with one continuation there is nothing
// to test) and LLVM inlines it: a resume is one direct step, as in a
// hand-written state machine (bench/run.sh, rows "retcon B" and "async B").
// What the entry does after the continuation returns is copied for each
// continuation, so a yield's path knows it names nothing to run next.
// (Each entry has its own prefix: the order of the functions is not
// checked.)

// The retcon entry: no call of the continuation, no stack, and no test of
// what it returned (its returns reach the entry field by field). The
// control block's state is a number, not the continuation's address
// (coro.continuation_state): with one continuation LLVM knows it, so the
// entry neither loads nor tests nor stores it. The yield's path stores
// only the published value and the loop's counter; the only call left
// transfers to an awaiter once the coroutine has ended.
// CHECK-LABEL: define internal fastcc void @gen_retcon.coro.resume(
// CHECK-NOT: alloca
// CHECK-NOT: call {{.*}}@gen_retcon.coro.ramp.resume.0(
// CHECK-NOT: icmp eq ptr %{{.*}}, inttoptr
// CHECK-NOT: store ptr inttoptr
// CHECK-NOT: call {
// CHECK-NOT: extractvalue
// CHECK: musttail call fastcc void
// CHECK-NEXT: ret void
// CHECK: }
// No address of the retcon continuation is taken, so LLVM drops it once
// inlined; the async continuation's address is what an await resumes
// into, so it stays.
// PARTS-NOT: @gen_retcon.coro.ramp.resume.0
// PARTS: define internal swifttailcc void @gen_async.coro.async.resume.0(
// PARTS-NOT: @gen_retcon.coro.ramp.resume.0
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
// ASYNC-LABEL: define internal fastcc void @gen_async.coro.resume(
// ASYNC-NOT: call swifttailcc void @gen_async.coro.async.resume.0(
// ASYNC-NOT: i64 -16
// ASYNC: icmp eq ptr %{{.*}}, @gen_async.coro.async.resume.0
// ASYNC-NEXT: call void @llvm.assume
// ASYNC-NOT: store ptr @gen_async.coro.async.resume.0
// ASYNC-NOT: i64 -16
// ASYNC: }
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
