// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// A `llvm.byval` argument of an async coroutine: the callee owns a copy of
// the bytes, made at the call, which the caller's copy (on the caller's
// stack, gone once the call returns) must not stand for. The async context
// holds the bytes themselves, not the pointer: the coroutine reads 7 after
// its creator has returned, changed its own struct to 9 and another call
// has overwritten that stack with 99s. (It read the dead stack before.)
// CHECK: 7

func.func @gen(%p: !llvm.ptr {llvm.byval = !llvm.struct<(i64, i64)>}) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  "coro.yield"(%c0) : (i64) -> i1
  %v = llvm.load %p : !llvm.ptr -> i64
  "coro.yield"(%v) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @make() -> !coro.handle<i64> {
  %one = arith.constant 1 : i64
  %s = llvm.alloca %one x !llvm.struct<(i64, i64)> : (i64) -> !llvm.ptr
  %c7 = arith.constant 7 : i64
  llvm.store %c7, %s : i64, !llvm.ptr
  %h = func.call @gen(%s) : (!llvm.ptr) -> !coro.handle<i64>
  %c9 = arith.constant 9 : i64
  llvm.store volatile %c9, %s : i64, !llvm.ptr
  return %h : !coro.handle<i64>
}

// Fills 64 words of its stack with 99 (volatile: nothing folds it away).
func.func @clobber() {
  %n = arith.constant 64 : i64
  %a = llvm.alloca %n x i64 : (i64) -> !llvm.ptr
  %c99 = arith.constant 99 : i64
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %k = arith.index_cast %i : index to i64
    %q = llvm.getelementptr %a[%k] : (!llvm.ptr, i64) -> !llvm.ptr, i64
    llvm.store volatile %c99, %q : i64, !llvm.ptr
  }
  return
}

func.func @main() -> i64 {
  %h = func.call @make() : () -> !coro.handle<i64>
  func.call @clobber() : () -> ()
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  return %v : i64
}
