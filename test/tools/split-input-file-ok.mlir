// With every chunk valid the exit status is 0; without the flag the marker
// is an ordinary comment.
// RUN: coro-opt --split-input-file %s | FileCheck %s
// RUN: coro-opt %s | FileCheck %s --check-prefix=WHOLE

// CHECK-LABEL: func.func @a
// CHECK: // -----
// CHECK-LABEL: func.func @b
// WHOLE: func.func @a
// WHOLE-NOT: // -----
// WHOLE: func.func @b
func.func @a() {
  return
}

// -----

func.func @b() {
  return
}
