// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s
// RUN: coro-translate --route=llvm %s --emit=llvm | FileCheck %s --check-prefix=IR

// Argument and result attributes on coroutines of every ABI (llvm.noundef,
// llvm.nonnull): the retcon, retcon.once and async conversions change the
// coroutine's signature, and used to leave its arg_attrs behind ("expects
// argument attribute array to have the same number of elements"). They
// move to the function callers call, which takes the same arguments.
// Each coroutine yields n = 3 first, then n + *p = 3 + 5: 8 each, and the
// retcon.once one ends with n + *p: 8.
// CHECK: 32
// IR-DAG: define noundef ptr @sw(i64 noundef %0, ptr noundef nonnull %1)
// IR-DAG: define noundef ptr @rc(i64 noundef %0, ptr noundef nonnull %1)
// IR-DAG: define noundef ptr @once(i64 noundef %0, ptr noundef nonnull %1)
// IR-DAG: define noundef ptr @as(i64 noundef %0, ptr noundef nonnull %1)

func.func @sw(%n: i64 {llvm.noundef}, %p: !llvm.ptr {llvm.nonnull, llvm.noundef}) -> (!coro.handle<i64> {llvm.noundef}) attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = llvm.load %p : !llvm.ptr -> i64
  "coro.yield"(%n) : (i64) -> i1
  %w = arith.addi %v, %n : i64
  "coro.yield"(%w) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @rc(%n: i64 {llvm.noundef}, %p: !llvm.ptr {llvm.nonnull, llvm.noundef}) -> (!coro.handle<i64> {llvm.noundef}) attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = llvm.load %p : !llvm.ptr -> i64
  "coro.yield"(%n) : (i64) -> i1
  %w = arith.addi %v, %n : i64
  "coro.yield"(%w) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @as(%n: i64 {llvm.noundef}, %p: !llvm.ptr {llvm.nonnull, llvm.noundef}) -> (!coro.handle<i64> {llvm.noundef}) attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = llvm.load %p : !llvm.ptr -> i64
  "coro.yield"(%n) : (i64) -> i1
  %w = arith.addi %v, %n : i64
  "coro.yield"(%w) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @once(%n: i64 {llvm.noundef}, %p: !llvm.ptr {llvm.nonnull, llvm.noundef}) -> (!coro.handle<i64> {llvm.noundef}) attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %v = llvm.load %p : !llvm.ptr -> i64
  "coro.yield"(%n) : (i64) -> i1
  %w = arith.addi %v, %n : i64
  "coro.end"(%h, %w) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// The second value each yields (the first is n = 3, checked here too).
func.func @second(%h: !coro.handle<i64>) -> i64 {
  %a = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  %b = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  %c3 = arith.constant 3 : i64
  %ok = arith.cmpi eq, %a, %c3 : i64
  %zero = arith.constant 0 : i64
  %r = arith.select %ok, %b, %zero : i64
  return %r : i64
}

func.func @main() -> i64 {
  %one = arith.constant 1 : i64
  %p = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  %c5 = arith.constant 5 : i64
  llvm.store %c5, %p : i64, !llvm.ptr
  %c3 = arith.constant 3 : i64
  %h1 = func.call @sw(%c3, %p) : (i64, !llvm.ptr) -> !coro.handle<i64>
  %a = func.call @second(%h1) : (!coro.handle<i64>) -> i64
  %h2 = func.call @rc(%c3, %p) : (i64, !llvm.ptr) -> !coro.handle<i64>
  %b = func.call @second(%h2) : (!coro.handle<i64>) -> i64
  %h3 = func.call @as(%c3, %p) : (i64, !llvm.ptr) -> !coro.handle<i64>
  %c = func.call @second(%h3) : (!coro.handle<i64>) -> i64
  %h4 = func.call @once(%c3, %p) : (i64, !llvm.ptr) -> !coro.handle<i64>
  %d = func.call @second(%h4) : (!coro.handle<i64>) -> i64
  %s1 = arith.addi %a, %b : i64
  %s2 = arith.addi %c, %d : i64
  %s = arith.addi %s1, %s2 : i64
  return %s : i64
}
