// fib.mlir - a sample for host-aot: a generator of Fibonacci numbers and a
// consumer. Every coroutine here is rewritten to the ABI host-aot is given.
//   ./host-aot fib.mlir --abi=switch -o fib     prints 8855
//
// @fib yields the first %n Fibonacci numbers, then ends with the next one
// as its final result.
func.func @fib(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0, %c0, %c1 : i64, i64, i64)
^loop(%k: i64, %a: i64, %b: i64):
  %more = arith.cmpi slt, %k, %n : i64
  cf.cond_br %more, ^body, ^done(%a : i64)
^body:
  %destroyed = "coro.yield"(%a) : (i64) -> i1
  %k1 = arith.addi %k, %c1 : i64
  %ab = arith.addi %a, %b : i64
  cf.cond_br %destroyed, ^done(%a : i64), ^loop(%k1, %b, %ab : i64, i64, i64)
^done(%last: i64):
  "coro.end"(%h, %last) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Sums the ten values @fib yields (88), reads its final result (55) and
// returns 100 * sum + final.
func.func @main() -> i64 {
  %n = arith.constant 10 : i64
  %zero = arith.constant 0 : i64
  %hundred = arith.constant 100 : i64
  %true = arith.constant true
  %g = call @fib(%n) : (i64) -> !coro.handle<i64>
  %sum = scf.while (%acc = %zero) : (i64) -> i64 {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i64
  } do {
  ^bb0(%acc: i64):
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %s = arith.addi %acc, %v : i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield %s : i64
  }
  %final = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %scaled = arith.muli %sum, %hundred : i64
  %r = arith.addi %scaled, %final : i64
  return %r : i64
}
