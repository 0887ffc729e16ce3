// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// Values of many types live across suspensions (@keep holds all of them
// over two yields) and travel through the promise (@pub_* publish one
// value each with a yield, then end). main adds everything up as f64:
//   @keep: 1 + 7 + 300 + 70000 + 10000000000 + 42 + 0.5 + 0.25
//          + (1+2+3+4) + 2.5 + (11 + 0.125)        = 10000070374.375
//   @pub:  1 - 3 + 1000 + 1.5 + 9 + 4 + 2.5 + 1.5  = 1016.5
// CHECK: 10000071390.875

func.func @keep(%a: i1, %b: i8, %c: i16, %d: i32, %e: i64, %f: index,
                %g: f32, %h: f64, %v: vector<4xf32>, %m: memref<?xf32>,
                %s: !llvm.struct<(i32, f64)>) -> !coro.handle<f64>
    attributes {coro.abi = "switch"} {
  %hdl = "coro.begin"() : () -> !coro.handle<f64>
  "coro.yield"() : () -> i1
  "coro.yield"() : () -> i1
  %af = arith.uitofp %a : i1 to f64
  %bf = arith.sitofp %b : i8 to f64
  %cf = arith.sitofp %c : i16 to f64
  %df = arith.sitofp %d : i32 to f64
  %ef = arith.sitofp %e : i64 to f64
  %fi = arith.index_cast %f : index to i64
  %ff = arith.sitofp %fi : i64 to f64
  %gf = arith.extf %g : f32 to f64
  %vs = vector.reduction <add>, %v : vector<4xf32> into f32
  %vf = arith.extf %vs : f32 to f64
  %c0 = arith.constant 0 : index
  %m0 = memref.load %m[%c0] : memref<?xf32>
  %mf = arith.extf %m0 : f32 to f64
  %s0 = llvm.extractvalue %s[0] : !llvm.struct<(i32, f64)>
  %s1 = llvm.extractvalue %s[1] : !llvm.struct<(i32, f64)>
  %s0f = arith.sitofp %s0 : i32 to f64
  %t1 = arith.addf %af, %bf : f64
  %t2 = arith.addf %t1, %cf : f64
  %t3 = arith.addf %t2, %df : f64
  %t4 = arith.addf %t3, %ef : f64
  %t5 = arith.addf %t4, %ff : f64
  %t6 = arith.addf %t5, %gf : f64
  %t7 = arith.addf %t6, %h : f64
  %t8 = arith.addf %t7, %vf : f64
  %t9 = arith.addf %t8, %mf : f64
  %t10 = arith.addf %t9, %s0f : f64
  %t11 = arith.addf %t10, %s1 : f64
  "coro.end"(%hdl, %t11) : (!coro.handle<f64>, f64) -> ()
  return %hdl : !coro.handle<f64>
}

func.func @pub_i1(%x: i1) -> !coro.handle<i1> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i1>
  "coro.yield"(%x) : (i1) -> i1
  "coro.end"(%h) : (!coro.handle<i1>) -> ()
  return %h : !coro.handle<i1>
}
func.func @pub_i8(%x: i8) -> !coro.handle<i8> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i8>
  "coro.yield"(%x) : (i8) -> i1
  "coro.end"(%h) : (!coro.handle<i8>) -> ()
  return %h : !coro.handle<i8>
}
func.func @pub_i16(%x: i16) -> !coro.handle<i16> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i16>
  "coro.yield"(%x) : (i16) -> i1
  "coro.end"(%h) : (!coro.handle<i16>) -> ()
  return %h : !coro.handle<i16>
}
func.func @pub_f32(%x: f32) -> !coro.handle<f32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  "coro.yield"(%x) : (f32) -> i1
  "coro.end"(%h) : (!coro.handle<f32>) -> ()
  return %h : !coro.handle<f32>
}
func.func @pub_index(%x: index) -> !coro.handle<index> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<index>
  "coro.yield"(%x) : (index) -> i1
  "coro.end"(%h) : (!coro.handle<index>) -> ()
  return %h : !coro.handle<index>
}
func.func @pub_vec(%x: vector<4xf32>) -> !coro.handle<vector<4xf32>> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<vector<4xf32>>
  "coro.yield"(%x) : (vector<4xf32>) -> i1
  "coro.end"(%h) : (!coro.handle<vector<4xf32>>) -> ()
  return %h : !coro.handle<vector<4xf32>>
}
func.func @pub_mem(%x: memref<?xf32>) -> !coro.handle<memref<?xf32>> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<memref<?xf32>>
  "coro.yield"(%x) : (memref<?xf32>) -> i1
  "coro.end"(%h) : (!coro.handle<memref<?xf32>>) -> ()
  return %h : !coro.handle<memref<?xf32>>
}
func.func @pub_struct(%x: !llvm.struct<(i32, f64)>) -> !coro.handle<!llvm.struct<(i32, f64)>> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<!llvm.struct<(i32, f64)>>
  "coro.yield"(%x) : (!llvm.struct<(i32, f64)>) -> i1
  "coro.end"(%h) : (!coro.handle<!llvm.struct<(i32, f64)>>) -> ()
  return %h : !coro.handle<!llvm.struct<(i32, f64)>>
}

func.func @main() -> f64 {
  %true = arith.constant true
  %i8 = arith.constant 7 : i8
  %i16 = arith.constant 300 : i16
  %i32 = arith.constant 70000 : i32
  %i64 = arith.constant 10000000000 : i64
  %idx = arith.constant 42 : index
  %f32 = arith.constant 0.5 : f32
  %f64 = arith.constant 0.25 : f64
  %vec = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %buf = memref.alloc() : memref<1xf32>
  %c0 = arith.constant 0 : index
  %m25 = arith.constant 2.5 : f32
  memref.store %m25, %buf[%c0] : memref<1xf32>
  %mem = memref.cast %buf : memref<1xf32> to memref<?xf32>
  %u = llvm.mlir.undef : !llvm.struct<(i32, f64)>
  %s11 = arith.constant 11 : i32
  %s125 = arith.constant 0.125 : f64
  %u1 = llvm.insertvalue %s11, %u[0] : !llvm.struct<(i32, f64)>
  %st = llvm.insertvalue %s125, %u1[1] : !llvm.struct<(i32, f64)>

  %k = call @keep(%true, %i8, %i16, %i32, %i64, %idx, %f32, %f64, %vec, %mem, %st)
      : (i1, i8, i16, i32, i64, index, f32, f64, vector<4xf32>, memref<?xf32>, !llvm.struct<(i32, f64)>) -> !coro.handle<f64>
  "coro.resume"(%k) : (!coro.handle<f64>) -> ()
  "coro.resume"(%k) : (!coro.handle<f64>) -> ()
  %kv = "coro.promise"(%k) : (!coro.handle<f64>) -> f64
  "coro.destroy"(%k) : (!coro.handle<f64>) -> ()

  %h1 = call @pub_i1(%true) : (i1) -> !coro.handle<i1>
  %v1 = "coro.promise"(%h1) : (!coro.handle<i1>) -> i1
  "coro.destroy"(%h1) : (!coro.handle<i1>) -> ()
  %p1 = arith.uitofp %v1 : i1 to f64
  %m3 = arith.constant -3 : i8
  %h2 = call @pub_i8(%m3) : (i8) -> !coro.handle<i8>
  %v2 = "coro.promise"(%h2) : (!coro.handle<i8>) -> i8
  "coro.destroy"(%h2) : (!coro.handle<i8>) -> ()
  %p2 = arith.sitofp %v2 : i8 to f64
  %k1000 = arith.constant 1000 : i16
  %h3 = call @pub_i16(%k1000) : (i16) -> !coro.handle<i16>
  %v3 = "coro.promise"(%h3) : (!coro.handle<i16>) -> i16
  "coro.destroy"(%h3) : (!coro.handle<i16>) -> ()
  %p3 = arith.sitofp %v3 : i16 to f64
  %f15 = arith.constant 1.5 : f32
  %h4 = call @pub_f32(%f15) : (f32) -> !coro.handle<f32>
  %v4 = "coro.promise"(%h4) : (!coro.handle<f32>) -> f32
  "coro.destroy"(%h4) : (!coro.handle<f32>) -> ()
  %p4 = arith.extf %v4 : f32 to f64
  %nine = arith.constant 9 : index
  %h5 = call @pub_index(%nine) : (index) -> !coro.handle<index>
  %v5 = "coro.promise"(%h5) : (!coro.handle<index>) -> index
  "coro.destroy"(%h5) : (!coro.handle<index>) -> ()
  %v5i = arith.index_cast %v5 : index to i64
  %p5 = arith.sitofp %v5i : i64 to f64
  %ones = arith.constant dense<1.0> : vector<4xf32>
  %h6 = call @pub_vec(%ones) : (vector<4xf32>) -> !coro.handle<vector<4xf32>>
  %v6 = "coro.promise"(%h6) : (!coro.handle<vector<4xf32>>) -> vector<4xf32>
  "coro.destroy"(%h6) : (!coro.handle<vector<4xf32>>) -> ()
  %v6s = vector.reduction <add>, %v6 : vector<4xf32> into f32
  %p6 = arith.extf %v6s : f32 to f64
  %h7 = call @pub_mem(%mem) : (memref<?xf32>) -> !coro.handle<memref<?xf32>>
  %v7 = "coro.promise"(%h7) : (!coro.handle<memref<?xf32>>) -> memref<?xf32>
  "coro.destroy"(%h7) : (!coro.handle<memref<?xf32>>) -> ()
  %v7e = memref.load %v7[%c0] : memref<?xf32>
  %p7 = arith.extf %v7e : f32 to f64
  %one = arith.constant 1 : i32
  %half = arith.constant 0.5 : f64
  %w1 = llvm.insertvalue %one, %u[0] : !llvm.struct<(i32, f64)>
  %w = llvm.insertvalue %half, %w1[1] : !llvm.struct<(i32, f64)>
  %h8 = call @pub_struct(%w) : (!llvm.struct<(i32, f64)>) -> !coro.handle<!llvm.struct<(i32, f64)>>
  %v8 = "coro.promise"(%h8) : (!coro.handle<!llvm.struct<(i32, f64)>>) -> !llvm.struct<(i32, f64)>
  "coro.destroy"(%h8) : (!coro.handle<!llvm.struct<(i32, f64)>>) -> ()
  %v80 = llvm.extractvalue %v8[0] : !llvm.struct<(i32, f64)>
  %v81 = llvm.extractvalue %v8[1] : !llvm.struct<(i32, f64)>
  %v80f = arith.sitofp %v80 : i32 to f64
  %p8 = arith.addf %v80f, %v81 : f64
  memref.dealloc %buf : memref<1xf32>

  %q1 = arith.addf %kv, %p1 : f64
  %q2 = arith.addf %q1, %p2 : f64
  %q3 = arith.addf %q2, %p3 : f64
  %q4 = arith.addf %q3, %p4 : f64
  %q5 = arith.addf %q4, %p5 : f64
  %q6 = arith.addf %q5, %p6 : f64
  %q7 = arith.addf %q6, %p7 : f64
  %q8 = arith.addf %q7, %p8 : f64
  return %q8 : f64
}
