// A syntax error on line 3.
func.func @main() -> i32 {
  %c = arith.constant : i32
  return %c : i32
}
