// RUN: not coro-run --route=llvm %s 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not coro-run --route=llvm %s --entry=args 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not coro-run --route=llvm %s --entry=vec 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: coro-run %s --entry=ok --route=mlir-split 2>&1 | FileCheck %s --check-prefix=ROUTE
// RUN: not coro-run %s --entry=ok --route=gpu 2>&1 | FileCheck %s --check-prefix=BADROUTE
// RUN: not coro-run --route=llvm %s --bogus 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not coro-run --route=llvm %S/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not coro-run --route=llvm %S/Inputs/parse-error.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not coro-run --route=llvm %S/Inputs/lower-error.mlir 2>&1 | FileCheck %s --check-prefix=LOWER

// MISSING: errors.mlir:1:1: error: no entry function '@main' in the module
// ARGS: errors.mlir:[[# @LINE + 6]]:1: error: entry function '@args' must take no arguments
// VEC: errors.mlir:[[# @LINE + 12]]:1: error: entry function '@vec' must return up to 16 values of type i1, i8, i16, i32, i64, index, f32 or f64
// ROUTE: {{^}}0{{$}}
// BADROUTE: coro-run: error: unknown route 'gpu'
// FLAG: coro-run: error: unknown option '--bogus'
// NOFILE: coro-run: error: {{.*}}does-not-exist.mlir
func.func @args(%x: i32) -> i32 {
  return %x : i32
}
func.func @ok() -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}
func.func @vec() -> vector<2xi32> {
  %c = arith.constant dense<0> : vector<2xi32>
  return %c : vector<2xi32>
}

// PARSE: parse-error.mlir:3:{{[0-9]+}}: error:
// LOWER: lower-error.mlir:3:1: error: the switch lowering needs the symbol '__coro_switch_final' for its own helper
