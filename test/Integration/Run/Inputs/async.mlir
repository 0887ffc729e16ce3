// A coroutine of an ABI whose conversion does not exist yet.
func.func @task() -> !coro.handle<i32> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 1 : i32
  "coro.yield"(%c) : (i32) -> i1
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}
func.func @main() -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}
