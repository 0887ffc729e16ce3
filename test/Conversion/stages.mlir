// RUN: coro-opt %s --split-input-file --coro-lower --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s
// RUN: coro-opt %s --split-input-file --coro-lower | FileCheck %s --check-prefix=OUT
// RUN: coro-opt --help | FileCheck %s --check-prefix=HELP

// The coro-lower pipelines' stages run, nested in them, only those of
// upstream's conversions whose dialects the module has ops of (each of
// those walks the whole module in MLIR's conversion driver, with nothing
// to do in a module without them); arith and cf (in one convert-to-llvm
// with their patterns alone) and func always. The output
// is in the LLVM dialect either way. The coroutine conversions run for
// the ABIs the module's coroutines use (all four in a module without
// coroutines), in the order switch, retcon, retcon.once, async.
// HELP: --coro-abis-to-llvm
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
// CHECK-NEXT: module
// CHECK: IR Dump After ConvertCoroToLLVMSwitch (convert-coro-to-llvm-switch)
// CHECK-NOT: ConvertCoroToLLVMRetcon
// CHECK-NOT: ConvertCoroToLLVMAsync
// CHECK: IR Dump After CoroABIsToLLVM (coro-abis-to-llvm)
// CHECK-NEXT: module
// CHECK-NOT: ConvertComplexToStandardPass
// CHECK-NOT: ConvertMathToLLVMPass
// CHECK-NOT: ConvertComplexToLLVMPass
// CHECK-NOT: FinalizeMemRefToLLVMConversionPass
// CHECK-NOT: ConvertIndexToLLVMPass
// CHECK: IR Dump After ConvertToLLVMPass (convert-to-llvm)
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
// CHECK: IR Dump After ConvertToLLVMPass (convert-to-llvm)
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
// CHECK: IR Dump After CoroCheckLowered (coro-check-lowered)
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

// -----

// Retcon and async coroutines: their two conversions, no other.
// CHECK: IR Dump After CoroLowerVectorsAndStrides (coro-lower-vectors-and-strides)
// CHECK-NEXT: module
// CHECK-NOT: ConvertCoroToLLVMSwitch
// CHECK: IR Dump After ConvertCoroToLLVMRetcon (convert-coro-to-llvm-retcon)
// CHECK-NOT: ConvertCoroToLLVMRetconOnce
// CHECK: IR Dump After ConvertCoroToLLVMAsync (convert-coro-to-llvm-async)
// CHECK-NEXT: module
// CHECK: IR Dump After CoroABIsToLLVM (coro-abis-to-llvm)
// CHECK: IR Dump After CoroCheckLowered (coro-check-lowered)
// OUT-LABEL: llvm.func @r(
// OUT-LABEL: llvm.func @a(
func.func @r(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
func.func @a(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// -----

// No coroutine, a consumer of a handle made elsewhere: every conversion
// runs (the first lowers the consumer).
// CHECK: IR Dump After CoroLowerVectorsAndStrides (coro-lower-vectors-and-strides)
// CHECK: IR Dump After ConvertCoroToLLVMSwitch (convert-coro-to-llvm-switch)
// CHECK: IR Dump After ConvertCoroToLLVMRetcon (convert-coro-to-llvm-retcon)
// CHECK: IR Dump After ConvertCoroToLLVMRetconOnce (convert-coro-to-llvm-retcon-once)
// CHECK: IR Dump After ConvertCoroToLLVMAsync (convert-coro-to-llvm-async)
// CHECK: IR Dump After CoroABIsToLLVM (coro-abis-to-llvm)
// OUT-LABEL: llvm.func @step(
// OUT: llvm.intr.coro.resume
func.func @step(%h: !coro.handle<i64>) {
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  return
}
