// RUN: coro-translate %s --route=mlir-split --emit=split-llvm -O2 | FileCheck %s
// RUN: coro-translate %s --route=mlir-split --emit=llvm -O2 | FileCheck %s --check-prefix=HELPERS

// A frame route B elides into its caller may be reached from elsewhere
// while the caller runs: @waiter's await makes its frame the awaited
// task's continuation, and whoever ends the task (another worker, if it
// is scheduled) resumes @waiter there. -O2's pre-split simplification ran
// before the frame was in @caller and marked @caller's calls `tail` (a
// promise that the callee touches no alloca of the caller); the split
// drops those marks from a caller it gives a frame, so LLVM reads the
// frame's done flag and promise after @opaque (which may have ended the
// task), not before it (test/Integration/Async/await-scheduled-foreign.mlir
// is the program that went wrong).
// The helpers the conversion wrote with llvm.coro.promise, which LLVM
// does not see touch the frame: -O2's pre-split simplification inferred
// their arguments `readnone` and not captured; once the split made the
// promise pointer arithmetic, the split drops those attributes.
// HELPERS: define internal ptr @__coro_switch_await(ptr %0, ptr %1)
// HELPERS: define internal ptr @__coro_switch_final(ptr %0, ptr %1)
// CHECK-LABEL: define {{.*}} @caller(
// CHECK: alloca [48 x i8]
// CHECK-NOT: tail call i64 @opaque
// CHECK: call i64 @opaque()
// CHECK-NEXT: load ptr, ptr %{{[0-9]+}}, align 16
func.func private @opaque() -> i64

func.func @task() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c = arith.constant 5 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @waiter(%t: !coro.handle<i64>) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @caller(%t: !coro.handle<i64>) -> (i1, i64) {
  %w = call @waiter(%t) : (!coro.handle<i64>) -> !coro.handle<i64>
  %y = call @opaque() : () -> i64
  %d = "coro.done"(%w) : (!coro.handle<i64>) -> i1
  %v = "coro.promise"(%w) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%w) : (!coro.handle<i64>) -> ()
  %s = arith.addi %v, %y : i64
  return %d, %s : i1, i64
}
