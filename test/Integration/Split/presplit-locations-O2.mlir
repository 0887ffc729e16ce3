// RUN: rm -f %t.o
// RUN: not coro-translate %s --emit=obj -O2 --route=mlir-split -o %t.o 2>&1 | FileCheck %s
// RUN: not test -e %t.o
// RUN: not coro-run %s -O2 --route=mlir-split 2>&1 | FileCheck %s
// RUN: not coro-translate %s --emit=ptx -O2 2>&1 | FileCheck %s
// RUN: not coro-translate %s --emit=obj -O0 --route=mlir-split -o %t.o 2>&1 | FileCheck %s

// An error route B's split finds after the pre-split trip of -O2 (here on
// the host, through coro-run, and on the device) is located at the op's
// line, as at -O0: the trip carries the ops' locations through LLVM IR as
// line tables. The coroutine's own location is a bare name, so the
// function has no line to fall back on.

func.func @inner(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%n) : (i64) -> i1
  "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @outer(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  // CHECK: presplit-locations-O2.mlir:[[@LINE+1]]:8: error: this use of an alloca the coroutine keeps in its frame runs before llvm.coro.begin
  %g = func.call @inner(%n) : (i64) -> !coro.handle<i64>
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%n) : (i64) -> i1
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %w = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  "coro.yield"(%w) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
} loc("outer")

func.func @main() -> i64 {
  %c = arith.constant 7 : i64
  %h = func.call @outer(%c) : (i64) -> !coro.handle<i64>
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  return %c : i64
}
