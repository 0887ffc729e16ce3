// A coroutine that forgets its coro.begin: coro-opt reports it at the
// function's location and exits with status 1.
func.func @broken() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.self"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
