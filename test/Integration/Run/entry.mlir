// RUN: coro-run --route=llvm %s --entry=i1 | FileCheck %s --check-prefix=I1
// RUN: coro-run --route=llvm %s --entry=i8 | FileCheck %s --check-prefix=I8
// RUN: coro-run --route=llvm %s --entry=i16 | FileCheck %s --check-prefix=I16
// RUN: coro-run --route=llvm %s --entry=i64 -O3 | FileCheck %s --check-prefix=I64
// RUN: coro-run --route=llvm %s --entry=idx -O1 | FileCheck %s --check-prefix=IDX
// RUN: coro-run --route=llvm %s --entry=f32 | FileCheck %s --check-prefix=F32
// RUN: coro-run --route=llvm %s --entry=f64 | FileCheck %s --check-prefix=F64
// RUN: coro-run --route=llvm %s --entry=nothing | count 0
// RUN: coro-run --route=llvm %s --entry=llvm_i32 | FileCheck %s --check-prefix=LLVM
// RUN: coro-run --route=llvm %s --entry=several | FileCheck %s --check-prefix=MULTI

// coro-run calls the entry with the C signature of its result type and
// prints the result in decimal.
// I1: {{^}}1{{$}}
// I8: {{^}}-5{{$}}
// I16: {{^}}-30000{{$}}
// I64: {{^}}-9000000000000{{$}}
// IDX: {{^}}123456789012{{$}}
// F32: {{^}}0.25{{$}}
// F64: {{^}}-1.125{{$}}
// LLVM: {{^}}7{{$}}
// Several results: one per line, in order.
// MULTI: {{^}}-7{{$}}
// MULTI-NEXT: {{^}}2.5{{$}}
// MULTI-NEXT: {{^}}0{{$}}
// MULTI-NEXT: {{^}}99{{$}}
// MULTI-NOT: {{.}}
func.func @i1() -> i1 {
  %c = arith.constant true
  return %c : i1
}
func.func @i8() -> i8 {
  %c = arith.constant -5 : i8
  return %c : i8
}
func.func @i16() -> i16 {
  %c = arith.constant -30000 : i16
  return %c : i16
}
func.func @i64() -> i64 {
  %c = arith.constant -9000000000000 : i64
  return %c : i64
}
func.func @idx() -> index {
  %c = arith.constant 123456789012 : index
  return %c : index
}
func.func @f32() -> f32 {
  %c = arith.constant 0.25 : f32
  return %c : f32
}
func.func @f64() -> f64 {
  %c = arith.constant -1.125 : f64
  return %c : f64
}
func.func @nothing() {
  return
}
llvm.func @llvm_i32() -> i32 {
  %c = llvm.mlir.constant(7 : i32) : i32
  llvm.return %c : i32
}
func.func @several() -> (i32, f64, i1, index) {
  %a = arith.constant -7 : i32
  %b = arith.constant 2.5 : f64
  %c = arith.constant false
  %d = arith.constant 99 : index
  return %a, %b, %c, %d : i32, f64, i1, index
}
