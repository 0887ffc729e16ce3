// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s
// RUN: coro-translate --route=llvm %s -O2 --emit=obj -o /dev/null
// RUN: coro-opt %s --coro-lower | FileCheck %s --check-prefix=ZERO

// Values of a type with no bits (a zero-length array, an empty struct)
// passed in, yielded, kept across suspensions and ended with, on the
// retcon.once ABI and its neighbours. LLVM's CoroSplit crashed at -O2 on
// the retcon.once coroutine (route A), laying out a frame for the
// zero-length argument the pre-split passes kept live up to its end: such
// a value is now a constant wherever it is used.

// ZERO-LABEL: llvm.func @once
// ZERO: llvm.mlir.zero : !llvm.array<0 x i64>
func.func @once(%n: i64, %arr: !llvm.array<0 x i64>) -> !coro.handle<!llvm.array<0 x i64>> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<!llvm.array<0 x i64>>
  %d = "coro.yield"(%arr) : (!llvm.array<0 x i64>) -> i1
  "coro.end"(%h, %arr) : (!coro.handle<!llvm.array<0 x i64>>, !llvm.array<0 x i64>) -> ()
  return %h : !coro.handle<!llvm.array<0 x i64>>
}

func.func @many(%n: i64, %e: !llvm.struct<(array<0 x i32>, struct<()>)>) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%n) : (i64) -> i1
  %p = "coro.yield"(%n) : (i64) -> i1
  %x = llvm.extractvalue %e[1] : !llvm.struct<(array<0 x i32>, struct<()>)>
  %y = llvm.insertvalue %x, %e[1] : !llvm.struct<(array<0 x i32>, struct<()>)>
  %z = llvm.extractvalue %y[0] : !llvm.struct<(array<0 x i32>, struct<()>)>
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @sw(%n: i64, %arr: !llvm.array<0 x i64>) -> !coro.handle<!llvm.array<0 x i64>> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<!llvm.array<0 x i64>>
  %d = "coro.yield"(%arr) : (!llvm.array<0 x i64>) -> i1
  "coro.end"(%h, %arr) : (!coro.handle<!llvm.array<0 x i64>>, !llvm.array<0 x i64>) -> ()
  return %h : !coro.handle<!llvm.array<0 x i64>>
}

func.func @main() -> i64 {
  %c = arith.constant 5 : i64
  %z = llvm.mlir.zero : !llvm.array<0 x i64>
  %h = func.call @once(%c, %z) : (i64, !llvm.array<0 x i64>) -> !coro.handle<!llvm.array<0 x i64>>
  %v = "coro.promise"(%h) : (!coro.handle<!llvm.array<0 x i64>>) -> !llvm.array<0 x i64>
  "coro.resume"(%h) : (!coro.handle<!llvm.array<0 x i64>>) -> ()
  "coro.destroy"(%h) : (!coro.handle<!llvm.array<0 x i64>>) -> ()
  %e = llvm.mlir.zero : !llvm.struct<(array<0 x i32>, struct<()>)>
  %g = func.call @many(%c, %e) : (i64, !llvm.struct<(array<0 x i32>, struct<()>)>) -> !coro.handle<i64>
  %a = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %b = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %s = func.call @sw(%c, %z) : (i64, !llvm.array<0 x i64>) -> !coro.handle<!llvm.array<0 x i64>>
  "coro.resume"(%s) : (!coro.handle<!llvm.array<0 x i64>>) -> ()
  %w = "coro.promise"(%s) : (!coro.handle<!llvm.array<0 x i64>>) -> !llvm.array<0 x i64>
  "coro.destroy"(%s) : (!coro.handle<!llvm.array<0 x i64>>) -> ()
  %t = arith.addi %a, %b : i64
  return %t : i64
}
// CHECK: 10
