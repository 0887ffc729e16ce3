// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s
// RUN: sed 's/coro.abi = "switch"/coro.abi = "retcon"/' %s > %t.retcon.mlir
// RUN: coro-run --route=mlir-split %t.retcon.mlir | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %t.retcon.mlir | FileCheck %s
// RUN: sed 's/coro.abi = "switch"/coro.abi = "async"/' %s > %t.async.mlir
// RUN: coro-run --route=mlir-split %t.async.mlir | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %t.async.mlir | FileCheck %s
// RUN: not grep -l 'coro.abi = "switch"' %t.retcon.mlir %t.async.mlir
// RUN: coro-opt --coro-lower --coro-split %s | FileCheck %s --check-prefix=IR

// Allocas of dynamic size aligned beyond malloc's 16 bytes, live across
// suspensions: each iteration takes a buffer of i + 1 elements aligned to
// 64 (then 128) bytes and yields its address modulo 64 (128) plus the
// element it stored there, read again after the suspension. Route B asks
// the allocator for alignment - 1 bytes more and rounds the address up:
// every yielded value is the element alone (0 1 4 9), the final value
// their sum, 14, and a generator destroyed mid-way frees what it holds
// (the sanitizer build checks both).
// (The module says coro.route = "mlir-split", so coro-opt's verifier takes
// the allocas too.)
// IR-LABEL: llvm.func @gen(
// IR: llvm.call @malloc
// IR: llvm.ptrtoint
// IR: llvm.and
// CHECK: {{^}}0{{$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^}}14{{$}}
// CHECK-NEXT: {{^}}14{{$}}
module attributes {coro.route = "mlir-split"} {
func.func @gen(%n: index) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0 : i64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %len = arith.addi %i, %c1 : index
    %a = memref.alloca(%len) {alignment = 64 : i64} : memref<?xi64>
    %b = memref.alloca(%len) {alignment = 128 : i64} : memref<?xi64>
    %v = arith.index_cast %i : index to i64
    %sq = arith.muli %v, %v : i64
    memref.store %sq, %a[%i] : memref<?xi64>
    memref.store %sq, %b[%i] : memref<?xi64>
    %pa = memref.extract_aligned_pointer_as_index %a : memref<?xi64> -> index
    %pb = memref.extract_aligned_pointer_as_index %b : memref<?xi64> -> index
    %ma = arith.remui %pa, %c64 : index
    %mb = arith.remui %pb, %c128 : index
    %m = arith.addi %ma, %mb : index
    %mi = arith.index_cast %m : index to i64
    %y = arith.addi %sq, %mi : i64
    %d = "coro.yield"(%y) : (i64) -> i1
    %w = memref.load %a[%i] : memref<?xi64>
    %x = memref.load %b[%i] : memref<?xi64>
    %pa2 = memref.extract_aligned_pointer_as_index %a : memref<?xi64> -> index
    %same = arith.cmpi eq, %pa, %pa2 : index
    %wx = arith.addi %w, %x : i64
    %one = arith.constant 1 : i64
    %half = arith.shrui %wx, %one : i64
    %s0 = arith.addi %acc, %half : i64
    %bad = arith.constant 1000 : i64
    %s = arith.select %same, %s0, %bad : i64
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
}
