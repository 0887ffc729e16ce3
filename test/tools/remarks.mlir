// Optimisation remarks: none without --remarks-filter; with it, one line
// `file:line:col: remark: <text>` for each remark whose category
// (coro-split, coro-elide, coro-frame) the regular expression matches as a
// whole. --test-coro-remarks emits a coro-split and a coro-elide remark per
// function.
// RUN: coro-opt %s --test-coro-remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE --allow-empty
// NONE-NOT: remark

// RUN: coro-opt %s --test-coro-remarks --remarks-filter=coro-split 2>&1 >/dev/null | FileCheck %s --check-prefix=SPLIT
// SPLIT: remarks.mlir:[[# @LINE + 16]]:1: remark: Split 'f' (test remark)
// SPLIT: remarks.mlir:[[# @LINE + 19]]:1: remark: Split 'g' (test remark)
// SPLIT-NOT: remark:

// RUN: coro-opt %s --test-coro-remarks --remarks-filter='coro-.*' 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: coro-opt %s --test-coro-remarks --remarks-filter='coro-split|coro-elide' --mlir-disable-threading 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// ALL: remarks.mlir:[[# @LINE + 10]]:1: remark: Split 'f' (test remark)
// ALL: remarks.mlir:[[# @LINE + 9]]:1: remark: 'f' not elided (test remark)
// ALL: remarks.mlir:[[# @LINE + 12]]:1: remark: Split 'g' (test remark)
// ALL: remarks.mlir:[[# @LINE + 11]]:1: remark: 'g' not elided (test remark)

// The whole category must match; a bad expression is a usage error.
// RUN: coro-opt %s --test-coro-remarks --remarks-filter=split 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE --allow-empty
// RUN: not coro-opt %s --test-coro-remarks --remarks-filter='coro-(' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: coro-opt: error: --remarks-filter: invalid remark category regular expression 'coro-(': parentheses not balanced

func.func @f() {
  return
}

func.func @g() {
  return
}
