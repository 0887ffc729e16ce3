// RUN: coro-translate %s --emit=llvm -O2 --route=mlir-split --remarks-filter=coro-frame -o %t.ll 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=NODBG < %t.ll
// RUN: coro-run %s -O2 --route=mlir-split | FileCheck %s --check-prefix=VALUE
// RUN: coro-run %s -O2 --route=llvm | FileCheck %s --check-prefix=VALUE

// Route B at -O2 splits what LLVM's pre-split passes made of a coroutine;
// the values its frame keeps are located where the source wrote them,
// though every function here is located by a bare name: a value LLVM
// inlined from a helper at the helper's line, with a note at the call; an
// argument at its place in the signature. A function whose ops name
// another file than its own keeps its ops at the function (a line table
// has one file per function). Nothing of the line tables is left in the
// output.

func.func private @square(%n: i64) -> i64 {
  %m = arith.muli %n, %n : i64
  return %m : i64
} loc("square")

// CHECK: presplit-remarks-O2.mlir:[[@LINE+3]]:16: remark: frame field of 'gen' at offset {{[0-9]+}} (size 8, align 8): value of i64, kept across suspensions 0
// CHECK: presplit-remarks-O2.mlir:[[@LINE-5]]:8: remark: frame field of 'gen' at offset {{[0-9]+}} (size 8, align 8): value of i64, kept across suspensions 1
// CHECK: presplit-remarks-O2.mlir:[[@LINE+4]]:8: note: called from
func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %m = func.call @square(%n) : (i64) -> i64
  %d = "coro.yield"(%m) : (i64) -> i1
  %x = arith.addi %n, %c1 : i64
  %d2 = "coro.yield"(%x) : (i64) -> i1
  "coro.end"(%h, %m) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
} loc("gen")

// CHECK: presplit-remarks-O2.mlir: remark: frame field of 'two' at offset {{[0-9]+}} (size 8, align 8): value of i64, kept across suspensions 0
func.func @two(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %m = arith.muli %n, %n : i64 loc("elsewhere.mlir":3:4)
  %d = "coro.yield"(%m) : (i64) -> i1
  "coro.end"(%h, %m) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
} loc("two")

func.func @main() -> i64 {
  %c = arith.constant 5 : i64
  %h = func.call @gen(%c) : (i64) -> !coro.handle<i64>
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  %w = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  %g = func.call @two(%c) : (i64) -> !coro.handle<i64>
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %u = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %s = arith.addi %v, %w : i64
  %t = arith.addi %s, %u : i64
  return %t : i64
}

// 25 (gen's first yield) + 6 (its second) + 25 (two's yield)
// VALUE: 56

// NODBG-NOT: !dbg
// NODBG-NOT: DISubprogram
// NODBG-NOT: DICompileUnit
