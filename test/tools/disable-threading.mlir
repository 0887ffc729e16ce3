// Passes run on several threads by default (as in mlir-opt);
// --mlir-disable-threading runs them on one. The result is the same, and
// --mlir-print-ir-module-scope (which needs one thread) is accepted only
// with it.
// RUN: coro-opt %s --canonicalize --cse | FileCheck %s
// RUN: coro-opt %s --canonicalize --cse --mlir-disable-threading | FileCheck %s
// RUN: coro-opt %s --canonicalize --cse --mlir-disable-threading=true | FileCheck %s
// RUN: coro-opt %s --canonicalize --cse --mlir-disable-threading=false | FileCheck %s
// CHECK-LABEL: func.func @a
// CHECK-NEXT: %[[C:.*]] = arith.constant 2 : i32
// CHECK-NEXT: return %[[C]], %[[C]] : i32, i32
// CHECK-LABEL: func.func @b
// CHECK-NEXT: %[[D:.*]] = arith.constant 3 : i32
// CHECK-NEXT: return %[[D]], %[[D]] : i32, i32

// RUN: coro-opt %s --cse --mlir-disable-threading --mlir-print-ir-module-scope --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=SCOPE
// SCOPE: IR Dump After CSE (cse)
// SCOPE-NEXT: module {
// RUN: not coro-opt %s --cse --mlir-print-ir-module-scope --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=NEEDS
// NEEDS: coro-opt: error: --mlir-print-ir-module-scope needs --mlir-disable-threading

func.func @a() -> (i32, i32) {
  %0 = arith.constant 1 : i32
  %1 = arith.addi %0, %0 : i32
  %2 = arith.addi %0, %0 : i32
  return %1, %2 : i32, i32
}

func.func @b() -> (i32, i32) {
  %0 = arith.constant 1 : i32
  %1 = arith.constant 2 : i32
  %2 = arith.addi %0, %1 : i32
  %3 = arith.addi %1, %0 : i32
  return %2, %3 : i32, i32
}
