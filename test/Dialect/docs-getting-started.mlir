// RUN: coro-opt %s | FileCheck %s
// RUN: coro-run --route=llvm %s --entry=sum | FileCheck %s --check-prefix=SUM
// RUN: coro-run --route=llvm %s --entry=sum -O2 | FileCheck %s --check-prefix=SUM
// RUN: coro-run --route=llvm %coro_src/examples/generator.mlir \
// RUN:   | FileCheck %s --check-prefix=GENERATOR
// RUN: cd %coro_src && not coro-opt examples/broken.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BROKEN

// The coroutine of docs/getting-started.md, "Your first coroutine": it
// parses, verifies, and runs as the page says (3 + 2 = 5). The page also
// shows examples/generator.mlir printing the sum of 0..9, and the error
// examples/broken.mlir gets.

// SUM: 5
// GENERATOR: 45
// BROKEN: examples/broken.mlir:3:1: error: 'func.func' op is a coroutine without 'coro.begin'

// CHECK-LABEL: func.func @countdown
// CHECK: "coro.yield"(%{{.*}}) : (i32) -> i1
// CHECK-LABEL: func.func @sum
// CHECK: "coro.promise"(%{{.*}}) : (!coro.handle<i32>) -> i32
func.func @countdown(%n: i32) -> !coro.handle<i32>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^loop(%n : i32)
^loop(%i: i32):
  %more = arith.cmpi sgt, %i, %c0 : i32
  cf.cond_br %more, ^body, ^done
^body:
  %destroyed = "coro.yield"(%i) : (i32) -> i1
  %next = arith.subi %i, %c1 : i32
  cf.cond_br %destroyed, ^done, ^loop(%next : i32)
^done:
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

func.func @sum() -> i32 {
  %n = arith.constant 3 : i32
  %g = call @countdown(%n) : (i32) -> !coro.handle<i32>
  %first = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  %second = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  %done = "coro.done"(%g) : (!coro.handle<i32>) -> i1
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  %s = arith.addi %first, %second : i32
  return %s : i32
}

