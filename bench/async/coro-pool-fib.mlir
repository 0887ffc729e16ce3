// coro-pool-fib.mlir - the fib tree of bench/async.sh on coro's thread
// pool, written against coro_rt_task_submit (submit an async task to a
// pool at any time; an awaiter of a submitted task suspends and is resumed
// on whichever worker ends it); async.sh's fib pool rows run it.
//
// @fib_pool(pool, n) parks at its start; for n >= 2 it creates
// a = fib_pool(n-1) and, for n >= 12 (the cutoff), submits it to the pool;
// then it creates b = fib_pool(n-2), awaits b (not submitted: driven in
// place), awaits a (driven in place below the cutoff), destroys both and
// ends with the sum; a leaf ends with n. Below the cutoff a subtree runs on
// one worker, as fib() of coro.mlir does: every call is still a task.

func.func private @coro_rt_task_submit(!llvm.ptr, !coro.handle<i64>) -> i32

func.func @fib_pool(%pool: !llvm.ptr, %n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"() : () -> i1
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %small = arith.cmpi ult, %n, %c2 : i64
  cf.cond_br %small, ^leaf, ^rec
^leaf:
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^rec:
  %n1 = arith.subi %n, %c1 : i64
  %n2 = arith.subi %n, %c2 : i64
  %a = func.call @fib_pool(%pool, %n1) : (!llvm.ptr, i64) -> !coro.handle<i64>
  %cutoff = arith.constant 12 : i64
  %big = arith.cmpi uge, %n, %cutoff : i64
  cf.cond_br %big, ^submit, ^own
^submit:
  %rc = func.call @coro_rt_task_submit(%pool, %a) : (!llvm.ptr, !coro.handle<i64>) -> i32
  cf.br ^own
^own:
  %b = func.call @fib_pool(%pool, %n2) : (!llvm.ptr, i64) -> !coro.handle<i64>
  %y = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  %x = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %s = arith.addi %x, %y : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
