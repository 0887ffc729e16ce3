// A diagnostic is followed by its source line and a caret under its
// column, as mlir-opt prints them; a tab expands to the next multiple of 8
// in both lines.
// RUN: not coro-opt %s 2>&1 | FileCheck %s --strict-whitespace

func.func @f() {
	%0 = arith.addi : i32
  return
}

// CHECK:      carets.mlir:7:17: error: expected SSA operand
// CHECK-NEXT: {{^}}        %0 = arith.addi : i32{{$}}
// CHECK-NEXT: {{^}}                       ^{{$}}
