// Coroutines of every ABI, the input of the garbage and bytecode tests.
func.func @gen(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %d = "coro.yield"(%n) : (i32) -> i1
  %s = "coro.self"() : () -> !coro.handle<i32>
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @acc() -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 0 : i64
  %d, %r = "coro.yield"(%c) : (i64) -> (i1, i64)
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @task() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %c = arith.constant 1 : i32
  %g = call @gen(%c) : (i32) -> !coro.handle<i32>
  %v = "coro.await"(%g) : (!coro.handle<i32>) -> i32
  "coro.await"(%g) : (!coro.handle<i32>) -> ()
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

func.func @consumer(%g: !coro.handle<i32>) -> i32 {
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  %done = "coro.done"(%g) : (!coro.handle<i32>) -> i1
  %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  %n = "coro.noop"() : () -> !coro.handle<none>
  "coro.resume"(%n) : (!coro.handle<none>) -> ()
  return %v : i32
}
