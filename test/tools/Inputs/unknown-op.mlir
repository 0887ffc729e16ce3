// An op of an unknown dialect.
func.func @f() {
  "nowhere.op"() : () -> ()
  return
}
