func.func @leaf() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c = arith.constant 1 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> i64 {
  %t = call @leaf() : () -> !coro.handle<i64>
  %g = "coro.group_create"() : () -> !llvm.ptr
  "coro.group_add"(%t, %g) : (!coro.handle<i64>, !llvm.ptr) -> ()
  cf.br ^next
^next:
  "coro.group_destroy"(%g) : (!llvm.ptr) -> ()
  "coro.resume"(%t) : (!coro.handle<i64>) -> ()
  %f = "coro.group_await"(%g) : (!llvm.ptr) -> i64
  "coro.group_destroy"(%g) : (!llvm.ptr) -> ()
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  return %f : i64
}
