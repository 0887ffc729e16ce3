// An expectation nothing produces.
func.func @f() {
  // expected-error@+1 {{this never happens}}
  return
}
