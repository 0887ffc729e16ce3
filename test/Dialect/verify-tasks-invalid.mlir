// RUN: coro-opt %s --split-input-file --verify-diagnostics
// The verifier's rules for task groups and errors (docs/dialect.md, "Tasks
// across threads"): what it can see of a misuse is a located error; what
// it cannot see the runtime reports (test/Runtime/tasks.test) and the
// checked mode traps on.

func.func @job() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 1 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @two_groups() {
  %t = call @job() : () -> !coro.handle<i64>
  %g1 = "coro.group_create"() : () -> !llvm.ptr
  %g2 = "coro.group_create"() : () -> !llvm.ptr
  "coro.group_add"(%t, %g1) : (!coro.handle<i64>, !llvm.ptr) -> ()
  // expected-error@+1 {{'coro.group_add' op adds a task an earlier coro.group_add of this block already added; a task belongs to one group}}
  "coro.group_add"(%t, %g2) : (!coro.handle<i64>, !llvm.ptr) -> ()
  return
}

// -----

func.func @job() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 1 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @destroy_pending() {
  %t = call @job() : () -> !coro.handle<i64>
  %g = "coro.group_create"() : () -> !llvm.ptr
  "coro.group_add"(%t, %g) : (!coro.handle<i64>, !llvm.ptr) -> ()
  // expected-error@+1 {{'coro.group_destroy' op destroys a group with tasks pending: a coro.group_add before it in this block is not followed by a coro.group_await}}
  "coro.group_destroy"(%g) : (!llvm.ptr) -> ()
  return
}

// -----

func.func @job() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 1 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Awaited, then destroyed: fine.
func.func @destroy_after_await() -> i64 {
  %t = call @job() : () -> !coro.handle<i64>
  %g = "coro.group_create"() : () -> !llvm.ptr
  "coro.group_add"(%t, %g) : (!coro.handle<i64>, !llvm.ptr) -> ()
  %f = "coro.group_await"(%g) : (!llvm.ptr) -> i64
  "coro.group_destroy"(%g) : (!llvm.ptr) -> ()
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  return %f : i64
}

func.func @switch_waits(%g: !llvm.ptr) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  // expected-error@+1 {{'coro.group_await' op suspends an async coroutine only (this one is 'switch'); outside coroutines it blocks the thread}}
  %f = "coro.group_await"(%g) : (!llvm.ptr) -> i64
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// -----

func.func @gen() -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 1 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @not_a_task() -> i1 {
  %t = call @gen() : () -> !coro.handle<i64>
  // expected-error@+1 {{'coro.failed' op takes an async task (coro.abi = "async"); this handle is a 'switch' coroutine's}}
  %f = "coro.failed"(%t) : (!coro.handle<i64>) -> i1
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  return %f : i1
}

// -----

func.func @not_a_pointer(%g: i64) {
  // expected-error@+1 {{'coro.group_destroy' op group has type i64; a group is an !llvm.ptr}}
  "coro.group_destroy"(%g) : (i64) -> ()
  return
}

// -----

func.func @job() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 1 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @await_destroyed() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %t = func.call @job() : () -> !coro.handle<i64>
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  // expected-error@+1 {{'coro.await' op awaits a coroutine that a coro.destroy before it in this block destroyed}}
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
