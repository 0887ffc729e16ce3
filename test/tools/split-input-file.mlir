// Every chunk is processed, even after one fails; outputs are separated by
// `// -----`; the exit status is 1 if any failed; lines keep their numbers.
// RUN: not coro-opt --split-input-file %s > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// CHECK-LABEL: func.func @first
// CHECK: // -----
// CHECK: // -----
// CHECK-LABEL: func.func @third
// CHECK-NOT: func.func @second
func.func @first() {
  return
}

// -----

func.func @second() -> i32 {
// ERR: split-input-file.mlir:[[# @LINE + 1]]:10: error: use of undeclared SSA value name
  return %nope : i32
}

// -----

func.func @third() {
  return
}
