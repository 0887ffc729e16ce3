// Passes coro-verify, fails in the lowering: a symbol of the module takes
// the name of a helper the switch conversion needs.
llvm.mlir.global internal @__coro_switch_final(0 : i32) : i32
func.func @gen() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.yield"() : () -> i1
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
func.func @main() -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}
