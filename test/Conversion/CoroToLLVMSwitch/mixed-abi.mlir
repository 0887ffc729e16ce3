// RUN: coro-opt %s --convert-coro-to-llvm-switch | FileCheck %s

// The switch conversion lowers only switch coroutines: a retcon coroutine
// keeps its body and signature for the retcon conversion. The code around
// it is retyped once: a call of it keeps the callee's handle type and its
// uses read the result through a cast to !llvm.ptr, and the consumer ops on
// its handle lower through the header every handle shares.

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
// CHECK: %[[RP:.*]] = builtin.unrealized_conversion_cast %[[R]] : !coro.handle<i32> to !llvm.ptr
// CHECK: llvm.intr.coro.resume %[[S]]
// CHECK: llvm.intr.coro.resume %[[RP]]
func.func @user() {
  %s = call @sw() : () -> !coro.handle<i32>
  %r = call @rc() : () -> !coro.handle<i32>
  "coro.resume"(%s) : (!coro.handle<i32>) -> ()
  "coro.resume"(%r) : (!coro.handle<i32>) -> ()
  return
}
