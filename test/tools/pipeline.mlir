// Passes by --pass-pipeline (anchored or bare), by one flag each, with
// options, ours and upstream alike.
// RUN: coro-opt %s --pass-pipeline='builtin.module(coro-verify,canonicalize,cse)' | FileCheck %s
// RUN: coro-opt %s --pass-pipeline='coro-verify,canonicalize,cse' | FileCheck %s
// RUN: coro-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=3}),cse)' | FileCheck %s
// RUN: coro-opt %s --coro-verify --canonicalize --cse | FileCheck %s
// RUN: coro-opt %s --canonicalize=max-iterations=3 --cse | FileCheck %s
// Without passes nothing folds.
// RUN: coro-opt %s | FileCheck %s --check-prefix=NONE

// CHECK-LABEL: func.func @fold
// CHECK-NEXT: %[[C:.*]] = arith.constant 5 : i32
// CHECK-NEXT: return %[[C]], %[[C]] : i32, i32
// NONE-LABEL: func.func @fold
// NONE: arith.addi
// NONE: arith.addi
func.func @fold() -> (i32, i32) {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b : i32
  return %0, %1 : i32, i32
}
