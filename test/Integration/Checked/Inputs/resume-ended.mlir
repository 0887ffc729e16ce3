// Resumes a coroutine that has already ended (undefined without the
// checked mode: the resume entry of an ended coroutine is null).
func.func @gen() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 7 : i32
  "coro.end"(%h, %c) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @main() -> i32 {
  %g = call @gen() : () -> !coro.handle<i32>
  %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return %v : i32
}
