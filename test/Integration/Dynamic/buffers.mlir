// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s
// RUN: sed 's/coro.abi = "switch"/coro.abi = "retcon"/' %s > %t.retcon.mlir
// RUN: coro-run --route=mlir-split %t.retcon.mlir | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %t.retcon.mlir | FileCheck %s
// RUN: sed 's/coro.abi = "switch"/coro.abi = "async"/' %s > %t.async.mlir
// RUN: coro-run --route=mlir-split %t.async.mlir | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %t.async.mlir | FileCheck %s
// RUN: not grep -l 'coro.abi = "switch"' %t.retcon.mlir %t.async.mlir
// Route A cannot split it: the verifier says so, naming route B.
// RUN: not coro-run --route=llvm %s 2>&1 | FileCheck %s --check-prefix=ROUTEA
// RUN: not coro-run --route=llvm %t.async.mlir 2>&1 | FileCheck %s --check-prefix=ROUTEA
// ROUTEA: {{.*}}.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'memref.alloca' op allocates a dynamically sized stack buffer that is live across a suspension (line {{[0-9]+}}, column {{[0-9]+}}); LLVM's CoroSplit (route A) needs a static size: lower with route B (--route=mlir-split, or coro.route = "mlir-split" on the module)

// Allocas of dynamic size live across suspensions, under route B and every
// ABI that suspends more than once: a buffer of %n squares made before the
// loop, and one buffer per iteration (of i + 1 elements: memory a stack
// would give anew each time) whose last element is yielded and read again
// after the suspension. Route B gives each heap memory the frame owns and
// frees it at the coroutine's end, whichever way it gets there: @main runs
// one generator to its end (yields 0 1 4 9, final value their sum, 14) and
// destroys another after two values, mid-way. The sanitizer build runs this
// too: LeakSanitizer reports any block not freed, AddressSanitizer any use
// after free.
// CHECK: {{^}}0{{$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^}}14{{$}}
// CHECK-NEXT: {{^}}14{{$}}
func.func @gen(%n: index) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %squares = memref.alloca(%n) : memref<?xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    %sq = arith.muli %v, %v : i64
    memref.store %sq, %squares[%i] : memref<?xi64>
  }
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %len = arith.addi %i, %c1 : index
    %tmp = memref.alloca(%len) : memref<?xi64>
    %v = memref.load %squares[%i] : memref<?xi64>
    memref.store %v, %tmp[%i] : memref<?xi64>
    %d = "coro.yield"(%v) : (i64) -> i1
    %w = memref.load %tmp[%i] : memref<?xi64>
    %s = arith.addi %acc, %w : i64
    scf.yield %s : i64
  }
  "coro.end"(%h, %sum) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i64, i64, i64) {
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %zero = arith.constant 0 : i64
  // destroyed mid-way, after two values
  %g = call @gen(%c4) : (index) -> !coro.handle<i64>
  %a = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %b = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  // run to its end: the sum of what it yields, and its final value
  %r = call @gen(%c4) : (index) -> !coro.handle<i64>
  %sum = scf.while (%acc = %zero) : (i64) -> i64 {
    %done = "coro.done"(%r) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i64
  } do {
  ^bb0(%acc: i64):
    %v = "coro.promise"(%r) : (!coro.handle<i64>) -> i64
    %s = arith.addi %acc, %v : i64
    "coro.resume"(%r) : (!coro.handle<i64>) -> ()
    scf.yield %s : i64
  }
  %final = "coro.promise"(%r) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%r) : (!coro.handle<i64>) -> ()
  return %a, %b, %sum, %final : i64, i64, i64, i64
}
