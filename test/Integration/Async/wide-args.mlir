// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s

// Arguments aligned to more than the task (vector<8xf32> is 32-byte
// aligned; tasks are 16-byte aligned) travel through the context with at
// most 16-byte alignment: @g keeps its vector argument across a yield and
// ends with its lane 7. Two tasks are created so that one of them sits at
// an address that is not 32-byte aligned.
// CHECK: {{^}}8{{$}}
// CHECK-NEXT: {{^}}16{{$}}
func.func @g(%v: vector<8xf32>) -> !coro.handle<f32> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  %z = arith.constant 0.0 : f32
  "coro.yield"(%z) : (f32) -> i1
  %e = vector.extract %v[7] : f32 from vector<8xf32>
  "coro.end"(%h, %e) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}

func.func @main() -> (f32, f32) {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : vector<8xf32>
  %d = arith.addf %c, %c : vector<8xf32>
  %t0 = call @g(%c) : (vector<8xf32>) -> !coro.handle<f32>
  %t1 = call @g(%d) : (vector<8xf32>) -> !coro.handle<f32>
  "coro.resume"(%t0) : (!coro.handle<f32>) -> ()
  "coro.resume"(%t1) : (!coro.handle<f32>) -> ()
  %a = "coro.promise"(%t0) : (!coro.handle<f32>) -> f32
  %b = "coro.promise"(%t1) : (!coro.handle<f32>) -> f32
  "coro.destroy"(%t0) : (!coro.handle<f32>) -> ()
  "coro.destroy"(%t1) : (!coro.handle<f32>) -> ()
  return %a, %b : f32, f32
}
