// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s
// RUN: sed 's/coro.abi = "async"/coro.abi = "switch"/' %s > %t.switch.mlir
// RUN: coro-run --route=llvm %t.switch.mlir | FileCheck %s
// RUN: sed 's/coro.abi = "async"/coro.abi = "retcon"/' %s > %t.retcon.mlir
// RUN: coro-run --route=llvm %t.retcon.mlir | FileCheck %s
// RUN: coro-run --route=llvm %t.retcon.mlir -O2 | FileCheck %s
// RUN: sed 's/coro.abi = "async"/coro.abi = "retcon.once"/' %s > %t.once.mlir
// RUN: coro-run --route=llvm %t.once.mlir | FileCheck %s

// A published type aligned to more than the promise's offset (vector<8xf32>
// is 32-byte aligned): the promise stays at 16 from the handle, where
// coro.promise and awaiters read it, as under the switch ABI (and in a
// retcon control block, checked by the retcon runs). @gen publishes
// [1..8], then ends with [11..18]; @sum awaits it and adds lanes 0 and 7 of
// its result. main reads lane 7 of the yielded value, then resumes @gen to
// its end and reads lane 0 of the final one, and @sum's result.
// CHECK: {{^}}8{{$}}
// CHECK-NEXT: {{^}}11{{$}}
// CHECK-NEXT: {{^}}29{{$}}
func.func @gen() -> !coro.handle<vector<8xf32>> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<vector<8xf32>>
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : vector<8xf32>
  %d = "coro.yield"(%a) : (vector<8xf32>) -> i1
  %b = arith.constant dense<[11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0]> : vector<8xf32>
  "coro.end"(%h, %b) : (!coro.handle<vector<8xf32>>, vector<8xf32>) -> ()
  return %h : !coro.handle<vector<8xf32>>
}

func.func @sum() -> !coro.handle<f32> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  %g = func.call @gen() : () -> !coro.handle<vector<8xf32>>
  %v = "coro.await"(%g) : (!coro.handle<vector<8xf32>>) -> vector<8xf32>
  "coro.destroy"(%g) : (!coro.handle<vector<8xf32>>) -> ()
  %x = vector.extract %v[0] : f32 from vector<8xf32>
  %y = vector.extract %v[7] : f32 from vector<8xf32>
  %s = arith.addf %x, %y : f32
  "coro.end"(%h, %s) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}

func.func @main() -> (f32, f32, f32) {
  %t = call @gen() : () -> !coro.handle<vector<8xf32>>
  %v = "coro.promise"(%t) : (!coro.handle<vector<8xf32>>) -> vector<8xf32>
  %a = vector.extract %v[7] : f32 from vector<8xf32>
  "coro.resume"(%t) : (!coro.handle<vector<8xf32>>) -> ()
  %w = "coro.promise"(%t) : (!coro.handle<vector<8xf32>>) -> vector<8xf32>
  %b = vector.extract %w[0] : f32 from vector<8xf32>
  "coro.destroy"(%t) : (!coro.handle<vector<8xf32>>) -> ()
  %s = call @sum() : () -> !coro.handle<f32>
  %c = "coro.promise"(%s) : (!coro.handle<f32>) -> f32
  "coro.destroy"(%s) : (!coro.handle<f32>) -> ()
  return %a, %b, %c : f32, f32, f32
}
