// RUN: not coro-translate %s --emit=ptx -O2 2>&1 | FileCheck %s
// RUN: coro-translate %s --emit=ptx -O0 | FileCheck %s --check-prefix=O0

// At -O2 and -O3, while LLVM's pre-split passes run, an elided call calls a
// declaration NAME$coro.elided.1 of its callee's type: a symbol of that
// name is an error at the symbol, not a call silently redirected. At -O0
// the names do not matter.
func.func @range(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// CHECK: presplit-invalid.mlir:[[@LINE+1]]:1: error: this symbol's name ends as those of the declarations that carry coro's marks on calls through LLVM's pre-split passes (at -O2 and -O3): rename it
func.func @"range$coro.elided.1"(%n: i64) -> i64 {
  return %n : i64
}

// O0: .visible .entry kernel(
func.func @kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.extui %tid : i32 to i64
  %g = call @range(%t) : (i64) -> !coro.handle<i64>
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %w = call @"range$coro.elided.1"(%v) : (i64) -> i64
  %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %w, %p : i64, !llvm.ptr
  return
}
