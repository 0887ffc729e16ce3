// Reads the destroy flag of its first yield but yields again when
// destroyed (without the checked mode: the destroy call returns with the
// coroutine suspended again, and its frame leaks).
func.func @gen() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 1 : i32
  %d = "coro.yield"(%c) : (i32) -> i1
  %c2 = arith.constant 2 : i32
  %x = arith.select %d, %c2, %c : i32
  %d2 = "coro.yield"(%x) : (i32) -> i1
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}
func.func @main() -> i32 {
  %g = call @gen() : () -> !coro.handle<i32>
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  %z = arith.constant 0 : i32
  return %z : i32
}
