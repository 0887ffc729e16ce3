// A coro op outside a coroutine: IRDL accepts it, coro-verify does not.
func.func @f() {
  %h = "coro.begin"() : () -> !coro.handle<i8>
  return
}
