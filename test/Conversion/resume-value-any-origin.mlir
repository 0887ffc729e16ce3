// RUN: coro-opt %s --convert-coro-to-llvm-switch | FileCheck %s
// RUN: coro-opt %s --convert-coro-to-llvm-async | FileCheck %s
// RUN: coro-opt %s --convert-coro-to-llvm-retcon | FileCheck %s
// RUN: coro-opt %s --coro-lower-switch -o /dev/null

// A consumer compiled apart from every coroutine (docs/dialect.md's
// @drive): whichever conversion lowers it, a value passed on resume to a
// handle of unknown origin goes to the resume slot of the control prefix
// every ABI's handle shares (after resume, destroy, the promise
// {ptr, i32} and the continuation), where a retcon
// coroutine reads it, and then the handle is resumed.
// CHECK-LABEL: func.func @drive(
// CHECK-SAME: %[[G:[^:]*]]: !llvm.ptr, %[[ACC:[^:]*]]: !llvm.ptr, %[[V:[^:]*]]: i64)
// CHECK: llvm.intr.coro.resume %[[G]]
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[ACC]][0, 4] {{.*}} !llvm.struct<(ptr, ptr, struct<(ptr, i64)>, ptr, i64)>
// CHECK: llvm.store %[[V]], %[[SLOT]]
// CHECK: llvm.intr.coro.resume %[[ACC]]
func.func @drive(%g: !coro.handle<i32>, %acc: !coro.handle<i64>,
                 %v: i64) -> i32 {
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  "coro.resume"(%acc, %v) : (!coro.handle<i64>, i64) -> ()
  %done = "coro.done"(%g) : (!coro.handle<i32>) -> i1
  %last = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  %n = "coro.noop"() : () -> !coro.handle<none>
  return %last : i32
}
