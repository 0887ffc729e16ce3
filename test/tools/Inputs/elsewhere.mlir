// An op located in another file than the input.
func.func @f(%x: i32) {
  %0 = "coro.done"(%x) : (i32) -> i1 loc("elsewhere.mlir":7:3)
  return
}
