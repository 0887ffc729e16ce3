// RUN: coro-opt %s | FileCheck %s
// RUN: coro-opt %s | coro-opt | FileCheck %s

// Every op of the dialect round-trips in generic form.

// CHECK-LABEL: func.func @gen
// CHECK-SAME: -> !coro.handle<i32> attributes {coro.abi = "switch"}
func.func @gen(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  // CHECK: %[[H:.*]] = "coro.begin"() : () -> !coro.handle<i32>
  %h = "coro.begin"() : () -> !coro.handle<i32>
  // CHECK: %{{.*}} = "coro.yield"(%{{.*}}) : (i32) -> i1
  %d = "coro.yield"(%n) : (i32) -> i1
  // CHECK: %{{.*}} = "coro.self"() : () -> !coro.handle<i32>
  %s = "coro.self"() : () -> !coro.handle<i32>
  // CHECK: "coro.end"(%[[H]], %{{.*}}) : (!coro.handle<i32>, i32) -> ()
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// CHECK-LABEL: func.func @acc
func.func @acc() -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 0 : i64
  // CHECK: %{{.*}}:2 = "coro.yield"(%{{.*}}) : (i64) -> (i1, i64)
  %d, %r = "coro.yield"(%c) : (i64) -> (i1, i64)
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// CHECK-LABEL: func.func @task
func.func @task() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %c = arith.constant 1 : i32
  %g = call @gen(%c) : (i32) -> !coro.handle<i32>
  // CHECK: %{{.*}} = "coro.await"(%{{.*}}) : (!coro.handle<i32>) -> i32
  %v = "coro.await"(%g) : (!coro.handle<i32>) -> i32
  // CHECK: "coro.await"(%{{.*}}) : (!coro.handle<i32>) -> ()
  "coro.await"(%g) : (!coro.handle<i32>) -> ()
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

// CHECK-LABEL: func.func @consumer
func.func @consumer(%g: !coro.handle<i32>) -> i32 {
  // CHECK: "coro.resume"(%{{.*}}) : (!coro.handle<i32>) -> ()
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  // CHECK: %{{.*}} = "coro.done"(%{{.*}}) : (!coro.handle<i32>) -> i1
  %done = "coro.done"(%g) : (!coro.handle<i32>) -> i1
  // CHECK: %{{.*}} = "coro.promise"(%{{.*}}) : (!coro.handle<i32>) -> i32
  %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  // CHECK: "coro.destroy"(%{{.*}}) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  // CHECK: %{{.*}} = "coro.noop"() : () -> !coro.handle<none>
  %n = "coro.noop"() : () -> !coro.handle<none>
  "coro.resume"(%n) : (!coro.handle<none>) -> ()
  return %v : i32
}
