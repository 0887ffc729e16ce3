func.func @gen(%n: i64) -> !coro.handle<f80> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f80>
  %x = arith.uitofp %n : i64 to f80
  %r = "coro.yield"(%x) : (f80) -> i1
  "coro.end"(%h) : (!coro.handle<f80>) -> ()
  return %h : !coro.handle<f80>
}
func.func @k(%out: !llvm.ptr) attributes {gpu.kernel} {
  %c = arith.constant 3 : i64
  %g = call @gen(%c) : (i64) -> !coro.handle<f80>
  %v = "coro.promise"(%g) : (!coro.handle<f80>) -> f80
  %d = arith.truncf %v : f80 to f64
  llvm.store %d, %out : f64, !llvm.ptr
  "coro.destroy"(%g) : (!coro.handle<f80>) -> ()
  return
}
