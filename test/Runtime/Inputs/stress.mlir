// The stress test's tasks (stress.test, stress.c): a binary tree of async
// tasks of depth D. Each task parks at its start; once run it takes an id
// from the shared counter and adds 1 to its slot (every slot must end at
// exactly 1: no task lost, none run twice). A leaf ends with 1, or fails
// (cf.assert) when mix(seed) % 97 == 0. An inner task creates its two
// children and runs them one of four ways, chosen by its seed:
//   0: submits `a` to the pool, awaits `b` in place (it drives it), then `a`
//   1: adds both to a group, submits both, waits for the group
//   2: submits both, awaits `a`, then `b`
//   3: awaits both in place
// and ends with 1 + what its children report: a child that failed counts
// 1 << 32 (coro.failed), one that did not, its value. A group whose failed
// count disagrees with coro.failed adds 1 << 60 (the host then fails).

func.func private @coro_rt_task_submit(!llvm.ptr, !coro.handle<i64>) -> i32

// The host computes the same tree with the same function (stress.c).
func.func @mix(%x: i64) -> i64 {
  %m = arith.constant 6364136223846793005 : i64
  %a = arith.constant 1442695040888963407 : i64
  %c33 = arith.constant 33 : i64
  %y = arith.muli %x, %m : i64
  %z = arith.addi %y, %a : i64
  %s = arith.shrui %z, %c33 : i64
  %r = arith.xori %z, %s : i64
  return %r : i64
}

// What a child adds to its parent's value.
func.func @report(%t: !coro.handle<i64>) -> (i64, i64) {
  %v = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  %f = "coro.failed"(%t) : (!coro.handle<i64>) -> i1
  %fail = arith.constant 4294967296 : i64
  %r = arith.select %f, %fail, %v : i64
  %fi = arith.extui %f : i1 to i64
  return %r, %fi : i64, i64
}

func.func @node(%pool: !llvm.ptr, %slots: !llvm.ptr, %ctr: !llvm.ptr, %seed: i64, %depth: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %parked = "coro.yield"() : () -> i1
  %one = arith.constant 1 : i64
  %zero = arith.constant 0 : i64
  %id = llvm.atomicrmw add %ctr, %one seq_cst : !llvm.ptr, i64
  %slot = llvm.getelementptr %slots[%id] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  %old = llvm.load %slot : !llvm.ptr -> i64
  %new = arith.addi %old, %one : i64
  llvm.store %new, %slot : i64, !llvm.ptr
  %r = func.call @mix(%seed) : (i64) -> i64
  %leaf = arith.cmpi eq, %depth, %zero : i64
  cf.cond_br %leaf, ^leaf, ^inner
^leaf:
  %c97 = arith.constant 97 : i64
  %m = arith.remui %r, %c97 : i64
  %ok = arith.cmpi ne, %m, %zero : i64
  cf.assert %ok, "stress: this leaf fails"
  "coro.end"(%h, %one) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^inner:
  %d1 = arith.subi %depth, %one : i64
  %r1 = arith.addi %r, %one : i64
  %two = arith.constant 2 : i64
  %r2 = arith.addi %r, %two : i64
  %sa = func.call @mix(%r1) : (i64) -> i64
  %sb = func.call @mix(%r2) : (i64) -> i64
  %a = func.call @node(%pool, %slots, %ctr, %sa, %d1) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> !coro.handle<i64>
  %b = func.call @node(%pool, %slots, %ctr, %sb, %d1) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> !coro.handle<i64>
  %c8 = arith.constant 8 : i64
  %three = arith.constant 3 : i64
  %rs = arith.shrui %r, %c8 : i64
  %mode = arith.andi %rs, %three : i64
  %m0 = arith.cmpi eq, %mode, %zero : i64
  cf.cond_br %m0, ^mode0, ^not0
^not0:
  %m1 = arith.cmpi eq, %mode, %one : i64
  cf.cond_br %m1, ^mode1, ^not1
^not1:
  %m2 = arith.cmpi eq, %mode, %two : i64
  cf.cond_br %m2, ^mode2, ^mode3
^mode0:
  %s0 = func.call @coro_rt_task_submit(%pool, %a) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %y0 = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  %x0 = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  cf.br ^join(%zero : i64)
^mode1:
  %g = "coro.group_create"() : () -> !llvm.ptr
  "coro.group_add"(%a, %g) : (!coro.handle<i64>, !llvm.ptr) -> ()
  "coro.group_add"(%b, %g) : (!coro.handle<i64>, !llvm.ptr) -> ()
  %s1a = func.call @coro_rt_task_submit(%pool, %a) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %s1b = func.call @coro_rt_task_submit(%pool, %b) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %failed = "coro.group_await"(%g) : (!llvm.ptr) -> i64
  "coro.group_destroy"(%g) : (!llvm.ptr) -> ()
  %ra, %fa = func.call @report(%a) : (!coro.handle<i64>) -> (i64, i64)
  %rb, %fb = func.call @report(%b) : (!coro.handle<i64>) -> (i64, i64)
  %fab = arith.addi %fa, %fb : i64
  %same = arith.cmpi eq, %fab, %failed : i64
  %wrong = arith.constant 1152921504606846976 : i64
  %penalty = arith.select %same, %zero, %wrong : i64
  cf.br ^join(%penalty : i64)
^mode2:
  %s2a = func.call @coro_rt_task_submit(%pool, %a) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %s2b = func.call @coro_rt_task_submit(%pool, %b) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %x2 = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  %y2 = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  cf.br ^join(%zero : i64)
^mode3:
  %x3 = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  %y3 = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  cf.br ^join(%zero : i64)
^join(%extra: i64):
  %va, %fva = func.call @report(%a) : (!coro.handle<i64>) -> (i64, i64)
  %vb, %fvb = func.call @report(%b) : (!coro.handle<i64>) -> (i64, i64)
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %t1 = arith.addi %va, %vb : i64
  %t2 = arith.addi %t1, %one : i64
  %t3 = arith.addi %t2, %extra : i64
  "coro.end"(%h, %t3) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
