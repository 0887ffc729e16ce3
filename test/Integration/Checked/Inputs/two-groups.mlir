func.func @leaf() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c = arith.constant 1 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> i64 {
  %t = call @leaf() : () -> !coro.handle<i64>
  %g1 = "coro.group_create"() : () -> !llvm.ptr
  %g2 = "coro.group_create"() : () -> !llvm.ptr
  "coro.group_add"(%t, %g1) : (!coro.handle<i64>, !llvm.ptr) -> ()
  cf.br ^next
^next:
  "coro.group_add"(%t, %g2) : (!coro.handle<i64>, !llvm.ptr) -> ()
  "coro.resume"(%t) : (!coro.handle<i64>) -> ()
  %f = "coro.group_await"(%g1) : (!llvm.ptr) -> i64
  "coro.group_destroy"(%g1) : (!llvm.ptr) -> ()
  %f2 = "coro.group_await"(%g2) : (!llvm.ptr) -> i64
  "coro.group_destroy"(%g2) : (!llvm.ptr) -> ()
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  return %f : i64
}
