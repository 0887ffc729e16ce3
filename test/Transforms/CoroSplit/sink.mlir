// RUN: coro-opt %s --coro-lower-switch --coro-split --remarks-filter=coro-frame -o /dev/null 2>&1 | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=llvm %s | FileCheck %s --check-prefix=OUT

// What the frame keeps when a value is cheap to make from smaller ones.
// @broadcast: a vector<8xf32> (32 bytes, aligned to 32) made by a
// broadcast of one f32 and used after the suspension: the split copies
// the broadcast after the suspension and keeps the f32 (4 bytes), as
// LLVM's -O2 pre-split passes sink it.
// CHECK: sink.mlir:[[@LINE+6]]:{{[0-9]+}}: remark: frame field of 'broadcast' at offset {{[0-9]+}} (size 4, align 4): value of f32, kept across suspensions 0
// CHECK-NOT: value of vector<8xf32>
// @twice: one memref read at two places after the suspension; its pointer
// is kept once, not once per read.
// CHECK: remark: frame field of 'twice' at offset {{[0-9]+}} (size 8, align 8): value of !llvm.ptr, kept across suspensions 0
// CHECK-NOT: 'twice' at offset {{[0-9]+}} (size {{[0-9]+}}, align {{[0-9]+}}): value of
func.func @broadcast(%x: f32) -> !coro.handle<f32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  %c = vector.broadcast %x : f32 to vector<8xf32>
  %z = arith.constant 0.0 : f32
  "coro.yield"(%z) : (f32) -> i1
  %d = arith.addf %c, %c : vector<8xf32>
  %e = vector.extract %d[5] : f32 from vector<8xf32>
  "coro.end"(%h, %e) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}

func.func @twice(%m: memref<4xi64>) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  "coro.yield"(%z) : (i64) -> i1
  %a = memref.load %m[%c0] : memref<4xi64>
  %b = memref.load %m[%c1] : memref<4xi64>
  %s = arith.addi %a, %b : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// OUT: {{^}}5{{$}}
// OUT-NEXT: {{^}}30{{$}}
func.func @main() -> (f32, i64) {
  %x = arith.constant 2.5 : f32
  %g = call @broadcast(%x) : (f32) -> !coro.handle<f32>
  "coro.resume"(%g) : (!coro.handle<f32>) -> ()
  %v = "coro.promise"(%g) : (!coro.handle<f32>) -> f32
  "coro.destroy"(%g) : (!coro.handle<f32>) -> ()
  %m = memref.alloca() : memref<4xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ten = arith.constant 10 : i64
  %twenty = arith.constant 20 : i64
  memref.store %ten, %m[%c0] : memref<4xi64>
  memref.store %twenty, %m[%c1] : memref<4xi64>
  %t = call @twice(%m) : (memref<4xi64>) -> !coro.handle<i64>
  "coro.resume"(%t) : (!coro.handle<i64>) -> ()
  %w = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  return %v, %w : f32, i64
}
