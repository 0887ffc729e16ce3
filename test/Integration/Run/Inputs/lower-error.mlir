// A yield inside a region that convert-scf-to-cf leaves structured.
func.func @gen() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  affine.for %i = 0 to 4 {
    "coro.yield"() : () -> i1
  }
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func @main() -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}
