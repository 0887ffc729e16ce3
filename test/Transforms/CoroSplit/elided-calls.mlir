// RUN: coro-opt %s --convert-coro-to-llvm-switch --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts --coro-split | FileCheck %s
// RUN: coro-opt %s --coro-lower-switch --coro-split | FileCheck %s --check-prefix=DECIDED

// --coro-split follows the decision on each call (coro.elided, from
// --coro-elide): true puts the frame in the caller through NAME.elided,
// false keeps the heap even for coro.alloc = "elide"; a call without it
// follows coro.alloc. The first RUN line takes the marks as written here;
// the second lets --coro-elide (in the named pipeline) decide: every
// handle here is local, so every call is elided.

// CHECK-LABEL: llvm.func @main
// CHECK-COUNT-2: llvm.alloca %{{.*}} x !llvm.array<48 x i8> {alignment = 16 : i64}
// CHECK: llvm.call @plain.elided(%{{.*}}, %{{.*}})
// CHECK: llvm.call @plain(%{{.*}})
// CHECK: llvm.call @asserted(%{{.*}})
// CHECK: llvm.call @asserted.elided(
// Resume and destroy of a handle whose origin the split sees call the
// part directly (.cleanup for an elided frame, .destroy for a heap one);
// a handle of unknown origin (a parameter) goes through the header.
// CHECK-LABEL: llvm.func @drive(
// CHECK: %[[R:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call fastcc %[[R]](
// CHECK-LABEL: llvm.func @direct(
// CHECK: %[[E:.*]] = llvm.call @plain.elided(
// CHECK: llvm.call fastcc @plain.resume(%[[E]])
// CHECK: llvm.call fastcc @plain.cleanup(%[[E]])
// CHECK: %[[P:.*]] = llvm.call @plain(
// CHECK: llvm.call fastcc @plain.resume(%[[P]])
// CHECK: llvm.call fastcc @plain.destroy(%[[P]])
// CHECK-LABEL: llvm.func internal @plain.elided(
// CHECK-NOT: @malloc
// CHECK: llvm.return
// CHECK-LABEL: llvm.func internal @asserted.elided(

// DECIDED-LABEL: llvm.func @main
// DECIDED: llvm.call @plain.elided(
// DECIDED: llvm.call @plain.elided(
// DECIDED: llvm.call @asserted.elided(
// DECIDED: llvm.call @asserted.elided(
func.func @plain(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.yield"(%n) : (i32) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @asserted(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.yield"(%n) : (i32) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @main(%n: i32) {
  %a = call @plain(%n) {coro.elided = true} : (i32) -> !coro.handle<i32>
  "coro.destroy"(%a) : (!coro.handle<i32>) -> ()
  %b = call @plain(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%b) : (!coro.handle<i32>) -> ()
  %c = call @asserted(%n) {coro.elided = false} : (i32) -> !coro.handle<i32>
  "coro.destroy"(%c) : (!coro.handle<i32>) -> ()
  %d = call @asserted(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%d) : (!coro.handle<i32>) -> ()
  return
}
func.func @drive(%h: !coro.handle<i32>) {
  "coro.resume"(%h) : (!coro.handle<i32>) -> ()
  return
}
func.func @direct(%n: i32) {
  %a = call @plain(%n) {coro.elided = true} : (i32) -> !coro.handle<i32>
  "coro.resume"(%a) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%a) : (!coro.handle<i32>) -> ()
  %b = call @plain(%n) {coro.elided = false} : (i32) -> !coro.handle<i32>
  "coro.resume"(%b) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i32>) -> ()
  return
}
