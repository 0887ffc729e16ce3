// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split --checked %s | FileCheck %s
// RUN: coro-run --route=mlir-split --no-elide %s | FileCheck %s

// Elided calls a coroutine makes before its own coro.begin (LLVM's shape
// of a coroutine that runs a sub-coroutine to completion in its ramp
// prefix): the callee's frame is an alloca of the caller's ramp, whose
// address escapes (to the callee's NAME.elided) before the caller's frame
// exists. Route B keeps it out of the caller's frame, as nothing uses it
// after a suspension; it used to refuse ("runs before llvm.coro.begin"),
// and with a retcon caller the split broke SSA ("does not dominate").
// The sum is 7 + 1 (switch caller) + 7 + 2 (retcon caller) = 17.
// CHECK: 17

func.func @inner(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @switch_caller(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %g = func.call @inner(%n) : (i64) -> !coro.handle<i64>
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%v) : (i64) -> i1
  %c1 = arith.constant 1 : i64
  "coro.yield"(%c1) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @retcon_caller(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %g = func.call @inner(%n) : (i64) -> !coro.handle<i64>
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%v) : (i64) -> i1
  %c2 = arith.constant 2 : i64
  "coro.yield"(%c2) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// The two values each caller yields.
func.func @drain(%h: !coro.handle<i64>) -> i64 {
  %a = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  %b = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  %s = arith.addi %a, %b : i64
  return %s : i64
}

func.func @main() -> i64 {
  %c7 = arith.constant 7 : i64
  %s = func.call @switch_caller(%c7) : (i64) -> !coro.handle<i64>
  %x = func.call @drain(%s) : (!coro.handle<i64>) -> i64
  %r = func.call @retcon_caller(%c7) : (i64) -> !coro.handle<i64>
  %y = func.call @drain(%r) : (!coro.handle<i64>) -> i64
  %t = arith.addi %x, %y : i64
  return %t : i64
}
