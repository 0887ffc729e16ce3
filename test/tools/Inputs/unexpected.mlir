// An error nobody expected.
func.func @f(%x: i32) {
  %0 = "coro.done"(%x) : (i32) -> i1
  return
}
