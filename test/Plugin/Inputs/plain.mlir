// No coroutine and no LLVM dialect.
func.func @twice(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  return %b : i32
}
