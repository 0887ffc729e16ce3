func.func @f() {
  // expected-error@sideways {{nope}}
  return
}
