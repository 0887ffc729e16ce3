// coro.mlir - coro's side of bench/async.sh, compiled ahead of time
// (coro-translate --emit=obj -O2) and driven by coro-main.c.
//
//   @leaf(i, out)  the fan-out task: parks at its start, so that its
//             creator holds it before it runs, then stores i % 7 in
//             slot i of `out` (as MLIR's side does) and ends
//   @fib(n)   the fib tree on the calling thread: parks at its start; for
//             n >= 2 creates fib(n-1) and fib(n-2), awaits both (each is
//             parked, so the await drives it in place), destroys both and
//             ends with the sum; a leaf ends with n

func.func @leaf(%i: i64, %out: !llvm.ptr) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"() : () -> i1
  %c7 = arith.constant 7 : i64
  %v = arith.remui %i, %c7 : i64
  %slot = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %v, %slot : i64, !llvm.ptr
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @fib(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
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
  %a = func.call @fib(%n1) : (i64) -> !coro.handle<i64>
  %b = func.call @fib(%n2) : (i64) -> !coro.handle<i64>
  %x = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  %y = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %s = arith.addi %x, %y : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
