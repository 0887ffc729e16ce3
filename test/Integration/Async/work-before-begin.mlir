// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// An async coroutine whose body does work before its coro.begin: it makes,
// resumes and destroys an async child and a switch child there, and keeps
// what they gave across its suspension. At -O2 route A used to crash: LLVM
// inlined the async child's entry before the parent's coro.begin, and
// LLVM's frame took the child's handoff slot (an alloca the entry passes
// on) and replaced it with a frame address defined after its use. The
// conversion now puts LLVM's coro.id.async and coro.begin first in the
// body (the context exists before the body runs). main prints the
// parent's two values: 4 + 1 + 4 * 2 = 13 at the yield, 130 at the end.
// CHECK: {{^}}13{{$}}
// CHECK-NEXT: {{^}}130{{$}}
func.func @child(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"() : () -> i1
  %c1 = arith.constant 1 : i64
  %r = arith.addi %n, %c1 : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @twice(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c2 = arith.constant 2 : i64
  %r = arith.muli %n, %c2 : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @parent(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %c = call @child(%n) : (i64) -> !coro.handle<i64>
  "coro.resume"(%c) : (!coro.handle<i64>) -> ()
  %v = "coro.promise"(%c) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%c) : (!coro.handle<i64>) -> ()
  %s = call @twice(%n) : (i64) -> !coro.handle<i64>
  %w = "coro.promise"(%s) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%s) : (!coro.handle<i64>) -> ()
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %vw = arith.addi %v, %w : i64
  %d = "coro.yield"(%vw) : (i64) -> i1
  %c10 = arith.constant 10 : i64
  %r = arith.muli %vw, %c10 : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i64) {
  %n = arith.constant 4 : i64
  %p = call @parent(%n) : (i64) -> !coro.handle<i64>
  %a = "coro.promise"(%p) : (!coro.handle<i64>) -> i64
  "coro.resume"(%p) : (!coro.handle<i64>) -> ()
  %b = "coro.promise"(%p) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%p) : (!coro.handle<i64>) -> ()
  return %a, %b : i64, i64
}
