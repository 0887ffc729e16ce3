// RUN: coro-opt %s --split-input-file --verify-diagnostics --coro-elide

// coro.alloc = "elide" is the frontend's assertion that a frame can live in
// its caller: where it is not true, the op that breaks it is an error.

func.func @gen(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.yield"(%n) : (i32) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @make(%n: i32) -> !coro.handle<i32> {
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  // expected-error@+1 {{coro.alloc = "elide" on 'gen' asserts that its frame can live in 'make', but the handle is returned}}
  return %g : !coro.handle<i32>
}

// -----

func.func @gen(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @pick(%n: i32, %c: i1) -> i32 {
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  %k = call @gen(%n) : (i32) -> !coro.handle<i32>
  // expected-error@+2 {{coro.alloc = "elide" on 'gen' asserts that its frame can live in 'pick', but the handle escapes through 'arith.select'}}
  // expected-error@+1 {{coro.alloc = "elide" on 'gen' asserts that its frame can live in 'pick', but the handle escapes through 'arith.select'}}
  %h = arith.select %c, %g, %k : !coro.handle<i32>
  %v = "coro.promise"(%h) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%k) : (!coro.handle<i32>) -> ()
  return %v : i32
}

// -----

func.func @gen(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @leak(%n: i32, %c: i1) {
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  cf.cond_br %c, ^kill, ^keep
^kill:
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return
^keep:
  // expected-error@+1 {{coro.alloc = "elide" on 'gen' asserts that its frame can live in 'leak', but the handle is not destroyed on every path: this 'func.return' is reached without coro.destroy}}
  return
}

// -----

func.func private @register(!coro.handle<i32>)
func.func @gen(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %me = "coro.self"() : () -> !coro.handle<i32>
  // expected-error@+1 {{coro.alloc = "elide" on 'gen' asserts that its frame can live in 'main', but it lets its own handle escape: the handle is passed to 'register', which has no body here and may keep it}}
  call @register(%me) : (!coro.handle<i32>) -> ()
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @main(%n: i32) {
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return
}
