// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// complex<f32> and complex<f64> values in every ABI: passed in, kept
// across suspensions, published (coro.yield, coro.end) and read
// (coro.promise); a frame, promise or task holds one as the struct of its
// two parts, and the pipeline lowers the complex dialect
// (convert-complex-to-standard, convert-math-to-llvm for complex.abs,
// convert-complex-to-llvm). The verifier used to refuse them. With
// z = 3+4i: z, z*z = -7+24i, |z*z| = 25; with d = 1.5-2i: d and d+d
// (retcon), conj(d)'s imaginary part (retcon.once), d*d + d (async).
// CHECK: 3
// CHECK-NEXT: 4
// CHECK-NEXT: -7
// CHECK-NEXT: 24
// CHECK-NEXT: 25
// CHECK-NEXT: 1.5
// CHECK-NEXT: -2
// CHECK-NEXT: 3
// CHECK-NEXT: -4
// CHECK-NEXT: 2
// CHECK-NEXT: -0.25
// CHECK-NEXT: -8

func.func @sw(%z: complex<f32>) -> !coro.handle<complex<f32>> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<complex<f32>>
  %w = complex.mul %z, %z : complex<f32>
  "coro.yield"(%z) : (complex<f32>) -> i1
  %a = complex.abs %w : complex<f32>
  "coro.yield"(%w) : (complex<f32>) -> i1
  %c = complex.create %a, %a : complex<f32>
  "coro.yield"(%c) : (complex<f32>) -> i1
  "coro.end"(%h) : (!coro.handle<complex<f32>>) -> ()
  return %h : !coro.handle<complex<f32>>
}
func.func @rc(%z: complex<f64>) -> !coro.handle<complex<f64>> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<complex<f64>>
  %w = complex.add %z, %z : complex<f64>
  %d0 = "coro.yield"(%z) : (complex<f64>) -> i1
  %d1 = "coro.yield"(%w) : (complex<f64>) -> i1
  "coro.end"(%h) : (!coro.handle<complex<f64>>) -> ()
  return %h : !coro.handle<complex<f64>>
}
func.func @once(%z: complex<f64>) -> !coro.handle<complex<f64>> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<complex<f64>>
  %w = complex.conj %z : complex<f64>
  %d = "coro.yield"(%z) : (complex<f64>) -> i1
  cf.cond_br %d, ^abort, ^commit
^commit:
  "coro.end"(%h, %w) : (!coro.handle<complex<f64>>, complex<f64>) -> ()
  return %h : !coro.handle<complex<f64>>
^abort:
  "coro.end"(%h, %z) : (!coro.handle<complex<f64>>, complex<f64>) -> ()
  return %h : !coro.handle<complex<f64>>
}
func.func @child(%z: complex<f64>) -> !coro.handle<complex<f64>> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<complex<f64>>
  %w = complex.mul %z, %z : complex<f64>
  "coro.end"(%h, %w) : (!coro.handle<complex<f64>>, complex<f64>) -> ()
  return %h : !coro.handle<complex<f64>>
}
func.func @parent(%z: complex<f64>) -> !coro.handle<complex<f64>> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<complex<f64>>
  %c = func.call @child(%z) : (complex<f64>) -> !coro.handle<complex<f64>>
  %d = "coro.yield"() : () -> i1
  %r = "coro.await"(%c) : (!coro.handle<complex<f64>>) -> complex<f64>
  "coro.destroy"(%c) : (!coro.handle<complex<f64>>) -> ()
  %s = complex.add %r, %z : complex<f64>
  "coro.end"(%h, %s) : (!coro.handle<complex<f64>>, complex<f64>) -> ()
  return %h : !coro.handle<complex<f64>>
}
func.func @main() -> (f32, f32, f32, f32, f32, f64, f64, f64, f64, f64, f64, f64) {
  %re = arith.constant 3.0 : f32
  %im = arith.constant 4.0 : f32
  %z = complex.create %re, %im : complex<f32>
  %h = call @sw(%z) : (complex<f32>) -> !coro.handle<complex<f32>>
  %v0 = "coro.promise"(%h) : (!coro.handle<complex<f32>>) -> complex<f32>
  "coro.resume"(%h) : (!coro.handle<complex<f32>>) -> ()
  %v1 = "coro.promise"(%h) : (!coro.handle<complex<f32>>) -> complex<f32>
  "coro.resume"(%h) : (!coro.handle<complex<f32>>) -> ()
  %v2 = "coro.promise"(%h) : (!coro.handle<complex<f32>>) -> complex<f32>
  "coro.destroy"(%h) : (!coro.handle<complex<f32>>) -> ()
  %a0 = complex.re %v0 : complex<f32>
  %b0 = complex.im %v0 : complex<f32>
  %a1 = complex.re %v1 : complex<f32>
  %b1 = complex.im %v1 : complex<f32>
  %a2 = complex.re %v2 : complex<f32>
  %dre = arith.constant 1.5 : f64
  %dim = arith.constant -2.0 : f64
  %zd = complex.create %dre, %dim : complex<f64>
  %g = call @rc(%zd) : (complex<f64>) -> !coro.handle<complex<f64>>
  %u0 = "coro.promise"(%g) : (!coro.handle<complex<f64>>) -> complex<f64>
  "coro.resume"(%g) : (!coro.handle<complex<f64>>) -> ()
  %u1 = "coro.promise"(%g) : (!coro.handle<complex<f64>>) -> complex<f64>
  "coro.destroy"(%g) : (!coro.handle<complex<f64>>) -> ()
  %c0 = complex.re %u0 : complex<f64>
  %e0 = complex.im %u0 : complex<f64>
  %c1 = complex.re %u1 : complex<f64>
  %e1 = complex.im %u1 : complex<f64>
  %o = call @once(%zd) : (complex<f64>) -> !coro.handle<complex<f64>>
  "coro.resume"(%o) : (!coro.handle<complex<f64>>) -> ()
  %of = "coro.promise"(%o) : (!coro.handle<complex<f64>>) -> complex<f64>
  "coro.destroy"(%o) : (!coro.handle<complex<f64>>) -> ()
  %oi = complex.im %of : complex<f64>
  %p = call @parent(%zd) : (complex<f64>) -> !coro.handle<complex<f64>>
  "coro.resume"(%p) : (!coro.handle<complex<f64>>) -> ()
  %pr = "coro.promise"(%p) : (!coro.handle<complex<f64>>) -> complex<f64>
  "coro.destroy"(%p) : (!coro.handle<complex<f64>>) -> ()
  %f0 = complex.re %pr : complex<f64>
  %f1 = complex.im %pr : complex<f64>
  return %a0, %b0, %a1, %b1, %a2, %c0, %e0, %c1, %e1, %oi, %f0, %f1 : f32, f32, f32, f32, f32, f64, f64, f64, f64, f64, f64, f64
}
