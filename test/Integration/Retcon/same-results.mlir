// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: sed 's/coro.abi = "retcon.once"/coro.abi = "retcon"/' %s | coro-run --route=llvm - | FileCheck %s
// RUN: sed 's/coro.abi = "retcon.once"/coro.abi = "switch"/' %s | coro-run --route=llvm - | FileCheck %s
// RUN: sed 's/coro.abi = "retcon.once"/coro.abi = "switch"/' %s | coro-run --route=llvm - -O2 | FileCheck %s
// Route B (coro's own --coro-split) gives the same results:
// RUN: coro-run %s --route=mlir-split | FileCheck %s
// RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s
// RUN: sed 's/coro.abi = "retcon.once"/coro.abi = "retcon"/' %s | coro-run - --route=mlir-split | FileCheck %s
// RUN: sed 's/coro.abi = "retcon.once"/coro.abi = "switch"/' %s | coro-run - --route=mlir-split | FileCheck %s
// RUN: sed 's/coro.abi = "retcon.once"/coro.abi = "switch"/' %s | coro-run - --route=mlir-split -O2 | FileCheck %s

// One program under retcon.once, retcon and switch, with the same output:
// a coroutine that publishes one value, suspends once and ends with a
// final result; another that awaits it. The consumer reads the published
// value, resumes, checks done and reads the final result.
// CHECK: {{^}}7{{$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^}}49{{$}}
// CHECK-NEXT: {{^}}50{{$}}
// CHECK-NEXT: {{^}}50{{$}}
func.func @square(%x: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%x) : (i64) -> i1
  %sq = arith.muli %x, %x : i64
  "coro.end"(%h, %sq) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Suspends once, in the await: of a square that has not finished (the ramp
// returns, then the square runs to its end and resumes this one), or of one
// that has (retcon.once still suspends once, and resumes itself at once).
func.func @plus_one(%s: !coro.handle<i64>) -> !coro.handle<i64> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = "coro.await"(%s) : (!coro.handle<i64>) -> i64
  %c1 = arith.constant 1 : i64
  %r = arith.addi %v, %c1 : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i1, i64, i64, i64) {
  %c7 = arith.constant 7 : i64
  %s = call @square(%c7) : (i64) -> !coro.handle<i64>
  %v = "coro.promise"(%s) : (!coro.handle<i64>) -> i64
  "coro.resume"(%s) : (!coro.handle<i64>) -> ()
  %done = "coro.done"(%s) : (!coro.handle<i64>) -> i1
  %f = "coro.promise"(%s) : (!coro.handle<i64>) -> i64
  %t = call @square(%c7) : (i64) -> !coro.handle<i64>
  %p = call @plus_one(%t) : (!coro.handle<i64>) -> !coro.handle<i64>
  %pf = "coro.promise"(%p) : (!coro.handle<i64>) -> i64
  %u = call @square(%c7) : (i64) -> !coro.handle<i64>
  "coro.resume"(%u) : (!coro.handle<i64>) -> ()
  %q = call @plus_one(%u) : (!coro.handle<i64>) -> !coro.handle<i64>
  %qf = "coro.promise"(%q) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%q) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%u) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%p) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%s) : (!coro.handle<i64>) -> ()
  return %v, %done, %f, %pf, %qf : i64, i1, i64, i64, i64
}
