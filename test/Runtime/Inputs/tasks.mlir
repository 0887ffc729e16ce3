// The tasks of tasks.test (driven by tasks.c).

func.func private @coro_rt_task_submit(!llvm.ptr, !coro.handle<i64>) -> i32

// Parks at its start, then counts its run in *%runs and ends with %v, or
// fails with "job failed" when %v is negative.
func.func @job(%v: i64, %runs: !llvm.ptr) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %p = "coro.yield"() : () -> i1
  %one = arith.constant 1 : i64
  %old = llvm.atomicrmw add %runs, %one seq_cst : !llvm.ptr, i64
  %zero = arith.constant 0 : i64
  %ok = arith.cmpi sge, %v, %zero : i64
  cf.assert %ok, "job failed"
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Submits itself while it runs (twice each time: counted once), then parks,
// %n times: each park queues it again. Counts its runs in *%runs, ends
// with %n.
func.func @again(%pool: !llvm.ptr, %n: i64, %runs: !llvm.ptr) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %self = "coro.self"() : () -> !coro.handle<i64>
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  cf.br ^loop(%zero : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %old = llvm.atomicrmw add %runs, %one seq_cst : !llvm.ptr, i64
  %r1 = func.call @coro_rt_task_submit(%pool, %self) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %r2 = func.call @coro_rt_task_submit(%pool, %self) : (!llvm.ptr, !coro.handle<i64>) -> i32
  %d = "coro.yield"() : () -> i1
  %next = arith.addi %i, %one : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
