// RUN: coro-opt %s --convert-coro-to-llvm-switch | FileCheck %s

// The switch conversion handles only switch coroutines: a retcon coroutine,
// the handles its calls return and the consumer ops on them are left for
// the retcon conversion.

// CHECK-LABEL: func.func @sw
// CHECK-SAME: -> !llvm.ptr
// CHECK: llvm.intr.coro.begin
func.func @sw() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 1 : i32
  "coro.end"(%h, %c) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// CHECK-LABEL: func.func @rc
// CHECK-SAME: -> !coro.handle<i32>
// CHECK: "coro.begin"
// CHECK: "coro.yield"
func.func @rc() -> !coro.handle<i32> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 1 : i32
  "coro.yield"(%c) : (i32) -> i1
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

// CHECK-LABEL: func.func @user
// CHECK: %[[S:.*]] = call @sw() : () -> !llvm.ptr
// CHECK: %[[R:.*]] = call @rc() : () -> !coro.handle<i32>
// CHECK: llvm.intr.coro.resume %[[S]]
// CHECK: "coro.resume"(%[[R]])
func.func @user() {
  %s = call @sw() : () -> !coro.handle<i32>
  %r = call @rc() : () -> !coro.handle<i32>
  "coro.resume"(%s) : (!coro.handle<i32>) -> ()
  "coro.resume"(%r) : (!coro.handle<i32>) -> ()
  return
}
