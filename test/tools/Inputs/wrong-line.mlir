// The right message on the wrong line, and the wrong severity.
func.func @f(%x: i32) {
  // expected-error@+1 {{expected base type}}
  // expected-warning@+1 {{see current operation}}
  %0 = "coro.done"(%x) : (i32) -> i1
  return
}
