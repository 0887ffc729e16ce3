// Input of ../await-never.test: a retcon.once coroutine awaiting its own
// handle, which it gets back from a call; @main resumes it once.
func.func private @id(%h: !coro.handle<i32>) -> !coro.handle<i32> attributes {llvm.noinline} {
  return %h : !coro.handle<i32>
}
func.func @selfish() -> !coro.handle<i32> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %s = "coro.self"() : () -> !coro.handle<i32>
  %x = func.call @id(%s) : (!coro.handle<i32>) -> !coro.handle<i32>
  %r = "coro.await"(%x) : (!coro.handle<i32>) -> i32
  "coro.end"(%h, %r) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @main() -> (i1, i1) {
  %a = call @selfish() : () -> !coro.handle<i32>
  %d0 = "coro.done"(%a) : (!coro.handle<i32>) -> i1
  "coro.resume"(%a) : (!coro.handle<i32>) -> ()
  %d1 = "coro.done"(%a) : (!coro.handle<i32>) -> i1
  return %d0, %d1 : i1, i1
}
