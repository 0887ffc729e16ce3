// RUN: coro-opt %s --coro-lower --coro-split | FileCheck %s --check-prefix=SPLIT
// RUN: coro-translate %s --route=mlir-split --emit=obj -O2 -o %t.o
// RUN: coro-translate %s --route=mlir-split --emit=llvm -O2 | FileCheck %s
// RUN: coro-run --route=llvm %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=OUT

// Under route B the destroy of a handle of unknown origin, which calls the
// fastcc function in the handle's header, is never a sibling call
// (notail); its resume may be. A destroy in tail position after a loop of
// resumes (a generator's consumer) would otherwise be a memory-indirect
// jump, which needs the handle in a scratch register at the loop's exit;
// LLVM's register allocator then copies the handle between that register
// and a callee-saved one around every resume in the loop: two
// instructions a value (bench/instructions.sh, rows "heap B" and
// "retcon B"). A destroy runs once a coroutine.
// SPLIT-LABEL: llvm.func @drain(
// SPLIT: llvm.call fastcc %{{[0-9]+}}(%arg0) : !llvm.ptr, (!llvm.ptr) -> ()
// SPLIT: llvm.call fastcc notail %{{[0-9]+}}(%arg0) : !llvm.ptr, (!llvm.ptr) -> ()
// SPLIT-LABEL: llvm.func @drain_retcon(
// SPLIT: llvm.call fastcc notail %{{[0-9]+}}(%arg0) : !llvm.ptr, (!llvm.ptr) -> ()
// CHECK-LABEL: define {{.*}}void @drain(
// CHECK: call fastcc void %
// CHECK: notail call fastcc void %
// CHECK-NEXT: ret void
// CHECK-LABEL: define {{.*}}void @drain_retcon(
// CHECK: notail call fastcc void %
// CHECK-NEXT: ret void
// OUT: {{^}}90{{$}}

func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @gen_retcon(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

llvm.mlir.global internal @total(0 : i64) : i64

// The handle is a parameter: the split sees no origin for it.
func.func @drain(%g: !coro.handle<i64>) {
  %c0 = arith.constant 0 : i64
  cf.br ^loop(%c0 : i64)
^loop(%s: i64):
  %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
  cf.cond_br %done, ^end, ^body
^body:
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  %t = arith.addi %s, %v : i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  cf.br ^loop(%t : i64)
^end:
  %p = llvm.mlir.addressof @total : !llvm.ptr
  %old = llvm.load %p : !llvm.ptr -> i64
  %new = arith.addi %old, %s : i64
  llvm.store %new, %p : i64, !llvm.ptr
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

func.func @drain_retcon(%g: !coro.handle<i64>) {
  %c0 = arith.constant 0 : i64
  cf.br ^loop(%c0 : i64)
^loop(%s: i64):
  %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
  cf.cond_br %done, ^end, ^body
^body:
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  %t = arith.addi %s, %v : i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  cf.br ^loop(%t : i64)
^end:
  %p = llvm.mlir.addressof @total : !llvm.ptr
  %old = llvm.load %p : !llvm.ptr -> i64
  %new = arith.addi %old, %s : i64
  llvm.store %new, %p : i64, !llvm.ptr
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

// 0 + ... + 9 = 45, by each ABI.
func.func @main() -> i64 {
  %n = arith.constant 10 : i64
  %a = call @gen(%n) : (i64) -> !coro.handle<i64>
  %b = call @gen_retcon(%n) : (i64) -> !coro.handle<i64>
  call @drain(%a) : (!coro.handle<i64>) -> ()
  call @drain_retcon(%b) : (!coro.handle<i64>) -> ()
  %p = llvm.mlir.addressof @total : !llvm.ptr
  %r = llvm.load %p : !llvm.ptr -> i64
  return %r : i64
}
