// RUN: coro-opt %s --inline --coro-lower-switch --coro-split --remarks-filter=coro-frame --verify-diagnostics -o /dev/null
// RUN: coro-opt %s --inline --coro-lower-switch --coro-split --remarks-filter=coro-frame -o /dev/null 2>&1 | FileCheck %s

// A diagnostic located at an op inlined from another function
// (callsite(callee at caller), from MLIR's inliner or route B's pre-split
// trip) is printed at the callee's line with a "called from" note at the
// call, as mlir-opt prints it; --verify-diagnostics matches it at the
// callee's line and needs no annotation for the note.

func.func private @square(%n: i64) -> i64 {
  // expected-remark @+2 {{frame field of 'gen' at offset 32 (size 8, align 8): value of i64, kept across suspensions 1}}
  // CHECK: call-site-notes.mlir:[[@LINE+1]]:8: remark: frame field of 'gen' at offset 32 (size 8, align 8): value of i64, kept across suspensions 1
  %m = arith.muli %n, %n : i64
  return %m : i64
}

// expected-remark @+1 {{frame field of 'gen' at offset 32 (size 8, align 8): value of i64, kept across suspensions 0}}
func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  // expected-remark @+1 {{alloca of i1}}
  %h = "coro.begin"() : () -> !coro.handle<i64>
  // CHECK: call-site-notes.mlir:[[@LINE+1]]:8: note: called from
  %m = func.call @square(%n) : (i64) -> i64
  %d = "coro.yield"(%m) : (i64) -> i1
  %d2 = "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h, %m) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
