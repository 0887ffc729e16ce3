// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-opt %s --convert-coro-to-llvm-switch | FileCheck %s --check-prefix=IR
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s

// Frames that need more alignment than malloc's 16: a vector<8xf32> kept
// across a yield (its spill slot is 32-aligned at -O0). With malloc/free
// the frame then comes from aligned_alloc (freed by free); at -O0 an
// aligned store into a 16-aligned frame crashed. 2.5 + 2.5 = 5, and the
// argument's element 7 is 8.
// CHECK: {{^}}5{{$}}
// CHECK-NEXT: {{^}}8{{$}}
// IR-LABEL: func.func @spill
// IR: %[[SIZE:.*]] = llvm.intr.coro.size : i64
// IR: %[[ALIGN:.*]] = llvm.intr.coro.align : i64
// IR: %[[BIG:.*]] = llvm.icmp "ugt" %[[ALIGN]]
// IR: llvm.cond_br %[[BIG]], ^[[OVER:.*]], ^[[PLAIN:[^ ]*]]
// IR: ^[[OVER]]:
// IR: llvm.call @aligned_alloc(%[[ALIGN]], %{{.*}})
// IR: ^[[PLAIN]]:
// IR: llvm.call @malloc(%[[SIZE]])
func.func @spill(%x: f32) -> !coro.handle<f32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  %c = vector.broadcast %x : f32 to vector<8xf32>
  %z = arith.constant 0.0 : f32
  "coro.yield"(%z) : (f32) -> i1
  %d = arith.addf %c, %c : vector<8xf32>
  %e = vector.extract %d[5] : f32 from vector<8xf32>
  "coro.end"(%h, %e) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}

func.func @arg(%v: vector<8xf32>) -> !coro.handle<f32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  %z = arith.constant 0.0 : f32
  "coro.yield"(%z) : (f32) -> i1
  %e = vector.extract %v[7] : f32 from vector<8xf32>
  "coro.end"(%h, %e) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}

func.func @main() -> (f32, f32) {
  %x = arith.constant 2.5 : f32
  %t0 = call @spill(%x) : (f32) -> !coro.handle<f32>
  %t = call @spill(%x) : (f32) -> !coro.handle<f32>
  "coro.resume"(%t) : (!coro.handle<f32>) -> ()
  %v = "coro.promise"(%t) : (!coro.handle<f32>) -> f32
  "coro.destroy"(%t) : (!coro.handle<f32>) -> ()
  "coro.destroy"(%t0) : (!coro.handle<f32>) -> ()
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : vector<8xf32>
  %a0 = call @arg(%c) : (vector<8xf32>) -> !coro.handle<f32>
  %a = call @arg(%c) : (vector<8xf32>) -> !coro.handle<f32>
  "coro.resume"(%a) : (!coro.handle<f32>) -> ()
  %w = "coro.promise"(%a) : (!coro.handle<f32>) -> f32
  "coro.destroy"(%a) : (!coro.handle<f32>) -> ()
  "coro.destroy"(%a0) : (!coro.handle<f32>) -> ()
  return %v, %w : f32, f32
}
