// RUN: coro-opt %s --split-input-file --coro-lower --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s
// RUN: coro-opt %s --split-input-file --coro-lower | FileCheck %s --check-prefix=OUT
// RUN: coro-opt --help | FileCheck %s --check-prefix=HELP

// The coro-lower pipelines' stages run, nested in them, only those of
// upstream's conversions whose dialects the module has ops of (each of
// those walks the whole module in MLIR's conversion driver, with nothing
// to do in a module without them); arith, cf and func always. The output
// is in the LLVM dialect either way.
// HELP: --coro-lower-vectors-and-strides
// HELP: --coro-regions-to-cf
// HELP: --coro-rest-to-llvm

// A coroutine of arith and func ops alone.
// CHECK-NOT: LowerAffinePass
// CHECK-NOT: SCFToControlFlowPass
// CHECK: IR Dump After CoroRegionsToCF (coro-regions-to-cf)
// CHECK-NEXT: module
// CHECK-NOT: ConvertVectorToLLVMPass
// CHECK-NOT: ExpandStridedMetadataPass
// CHECK-NOT: LowerAffinePass
// CHECK: IR Dump After CoroLowerVectorsAndStrides (coro-lower-vectors-and-strides)
// CHECK-NOT: ConvertComplexToStandardPass
// CHECK-NOT: ConvertMathToLLVMPass
// CHECK-NOT: ConvertComplexToLLVMPass
// CHECK-NOT: FinalizeMemRefToLLVMConversionPass
// CHECK-NOT: ConvertIndexToLLVMPass
// CHECK: IR Dump After ArithToLLVMConversionPass (convert-arith-to-llvm)
// CHECK: IR Dump After ConvertControlFlowToLLVMPass (convert-cf-to-llvm)
// CHECK: IR Dump After ConvertFuncToLLVMPass (convert-func-to-llvm)
// CHECK: IR Dump After ReconcileUnrealizedCastsPass (reconcile-unrealized-casts)
// CHECK: IR Dump After CoroRestToLLVM (coro-rest-to-llvm)
// CHECK: IR Dump After CoroCheckLowered (coro-check-lowered)
// OUT-LABEL: llvm.func @plain(
func.func @plain(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %m = arith.addi %n, %c1 : i64
  %d = "coro.yield"(%m) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// -----

// A complex value, a strided memref read in an scf loop with an index op,
// a vector and math: every conversion runs, each in its stage.
// CHECK: IR Dump After SCFToControlFlowPass (convert-scf-to-cf)
// CHECK: IR Dump After CoroRegionsToCF (coro-regions-to-cf)
// CHECK: IR Dump After ConvertVectorToLLVMPass (convert-vector-to-llvm)
// CHECK: IR Dump After ExpandStridedMetadataPass (expand-strided-metadata)
// CHECK: IR Dump After LowerAffinePass (lower-affine)
// CHECK: IR Dump After CoroLowerVectorsAndStrides (coro-lower-vectors-and-strides)
// CHECK: IR Dump After ConvertComplexToStandardPass (convert-complex-to-standard)
// CHECK: IR Dump After ConvertMathToLLVMPass (convert-math-to-llvm)
// CHECK: IR Dump After ConvertComplexToLLVMPass (convert-complex-to-llvm)
// CHECK: IR Dump After FinalizeMemRefToLLVMConversionPass (finalize-memref-to-llvm)
// CHECK: IR Dump After ConvertIndexToLLVMPass (convert-index-to-llvm)
// CHECK: IR Dump After ArithToLLVMConversionPass (convert-arith-to-llvm)
// CHECK: IR Dump After CoroRestToLLVM (coro-rest-to-llvm)
// OUT-LABEL: llvm.func @every(
// OUT-NOT: complex.
// OUT-NOT: memref.
// OUT-NOT: vector.
// OUT-NOT: math.
// OUT-NOT: index.
// OUT-NOT: scf.
func.func @every(%z: complex<f64>, %m: memref<8xf64>, %v: vector<4xf32>) -> !coro.handle<f64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<f64>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %a = complex.abs %z : complex<f64>
  %d0 = "coro.yield"(%a) : (f64) -> i1
  %s = memref.subview %m[2] [4] [1] : memref<8xf64> to memref<4xf64, strided<[1], offset: 2>>
  scf.for %i = %c0 to %c2 step %c1 {
    %j = index.add %i, %c1
    %x = memref.load %s[%j] : memref<4xf64, strided<[1], offset: 2>>
    %d = "coro.yield"(%x) : (f64) -> i1
  }
  %e = vector.extract %v[0] : f32 from vector<4xf32>
  %ee = arith.extf %e : f32 to f64
  %q = math.sqrt %ee : f64
  %d2 = "coro.yield"(%q) : (f64) -> i1
  "coro.end"(%h) : (!coro.handle<f64>) -> ()
  return %h : !coro.handle<f64>
}

// -----

// A suspension in an affine loop: lower-affine, then scf to cf.
// CHECK: IR Dump After LowerAffinePass (lower-affine)
// CHECK: IR Dump After SCFToControlFlowPass (convert-scf-to-cf)
// CHECK: IR Dump After CoroRegionsToCF (coro-regions-to-cf)
// OUT-LABEL: llvm.func @in_affine(
// OUT-NOT: affine.
func.func @in_affine(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  affine.for %i = 0 to 3 {
    %d = "coro.yield"(%n) : (i64) -> i1
  }
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
