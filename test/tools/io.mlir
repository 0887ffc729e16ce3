// Input from a file, from stdin (`-` or no file at all), and output to -o.
// RUN: coro-opt %s | FileCheck %s
// RUN: coro-opt - < %s | FileCheck %s
// RUN: coro-opt < %s | FileCheck %s
// RUN: coro-opt %s -o %t && FileCheck %s < %t
// RUN: coro-opt %s -o - | FileCheck %s
// The output parses again.
// RUN: coro-opt %s | coro-opt | FileCheck %s

// CHECK-LABEL: func.func @id
// CHECK-SAME: (%[[X:.*]]: i32) -> i32
// CHECK: return %[[X]] : i32
func.func @id(%x: i32) -> i32 {
  return %x : i32
}
