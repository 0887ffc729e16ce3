// coro.done takes a handle, not an i32.
func.func @f(%x: i32) -> i1 {
  %0 = "coro.done"(%x) : (i32) -> i1
  return %0 : i1
}
