// An op the coro dialect does not define.
func.func @f() {
  "coro.frobnicate"() : () -> ()
  return
}
