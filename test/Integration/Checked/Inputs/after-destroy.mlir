// Uses of a handle after coro.destroy, one entry each (after-destroy.test).
func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%n) : (i64) -> i1
  "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @task(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @waiter(%t: !coro.handle<i64>) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// In another function, so the verifier cannot see it.
func.func @kill(%g: !coro.handle<i64>) {
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

func.func @resume_after() -> i64 {
  %c = arith.constant 5 : i64
  %g = call @gen(%c) : (i64) -> !coro.handle<i64>
  call @kill(%g) : (!coro.handle<i64>) -> ()
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  return %c : i64
}

func.func @promise_after() -> i64 {
  %c = arith.constant 5 : i64
  %g = call @gen(%c) : (i64) -> !coro.handle<i64>
  call @kill(%g) : (!coro.handle<i64>) -> ()
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  return %v : i64
}

func.func @done_after() -> i64 {
  %c = arith.constant 5 : i64
  %g = call @gen(%c) : (i64) -> !coro.handle<i64>
  call @kill(%g) : (!coro.handle<i64>) -> ()
  %d = "coro.done"(%g) : (!coro.handle<i64>) -> i1
  %r = arith.extui %d : i1 to i64
  return %r : i64
}

func.func @destroy_twice() -> i64 {
  %c = arith.constant 5 : i64
  %g = call @gen(%c) : (i64) -> !coro.handle<i64>
  call @kill(%g) : (!coro.handle<i64>) -> ()
  call @kill(%g) : (!coro.handle<i64>) -> ()
  return %c : i64
}

// An awaiter given a destroyed task (its origin unknown to the check).
func.func @await_after() -> i64 {
  %c = arith.constant 5 : i64
  %t = call @task(%c) : (i64) -> !coro.handle<i64>
  call @kill(%t) : (!coro.handle<i64>) -> ()
  %w = call @waiter(%t) : (!coro.handle<i64>) -> !coro.handle<i64>
  "coro.destroy"(%w) : (!coro.handle<i64>) -> ()
  return %c : i64
}

// Valid: 2,000 generators made, run and destroyed one after another, so
// new frames reuse the addresses of destroyed ones; none is reported.
func.func @reuse() -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %n = arith.constant 2000 : i64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i64) : i64 {
    %g = func.call @gen(%i) : (i64) -> !coro.handle<i64>
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %d = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
    %a = arith.addi %acc, %v : i64
    scf.yield %a : i64
  }
  return %s : i64
}
