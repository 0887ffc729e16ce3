// RUN: mlir-opt %s --async-to-async-runtime --async-runtime-ref-counting --async-runtime-ref-counting-opt --convert-async-to-llvm --convert-scf-to-cf --convert-arith-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts -o %t.mlir
// RUN: mlir-runner %t.mlir -O0 -e main -entry-point-result=i32 -shared-libs=%llvm_lib/libmlir_async_runtime.so | FileCheck %s --check-prefix=OUT
// RUN: coro-opt --coro-split %t.mlir -o %t.split.mlir
// RUN: mlir-runner %t.split.mlir -O0 -e main -entry-point-result=i32 -shared-libs=%llvm_lib/libmlir_async_runtime.so | FileCheck %s --check-prefix=OUT
// RUN: mlir-runner %t.split.mlir -O2 -e main -entry-point-result=i32 -shared-libs=%llvm_lib/libmlir_async_runtime.so | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --input-file=%t.split.mlir

// Coroutines made by MLIR's own async lowering (convert-async-to-llvm) and
// split by --coro-split run under mlir-runner with MLIR's async runtime
// exactly as they do when LLVM splits them (the first run; mlir-runner's
// own -O2 with LLVM's coroutine passes stops with "Do not know how to
// promote this operator's operand!" on this module, so the oracle runs at
// -O0, and route B runs at both): a chain of
// async.execute regions, each awaiting the previous one's value, on the
// runtime's thread pool. (20 + 20) * 3 + 2 = 122, summed over 8 chains.
// OUT: {{^}}976{{$}}

// CHECK-NOT: presplitcoroutine
// CHECK-NOT: llvm.intr.coro
// CHECK: llvm.func internal fastcc @async_execute_fn.resume(
// CHECK: llvm.func internal fastcc @async_execute_fn.destroy(
// CHECK: llvm.func internal fastcc @async_execute_fn.cleanup(

func.func @chain(%c: i32) -> i32 {
  %t1, %r1 = async.execute -> !async.value<i32> {
    %x = arith.addi %c, %c : i32
    async.yield %x : i32
  }
  %t2, %r2 = async.execute [%t1] (%r1 as %v: !async.value<i32>) -> !async.value<i32> {
    %three = arith.constant 3 : i32
    %y = arith.muli %v, %three : i32
    async.yield %y : i32
  }
  %t3, %r3 = async.execute (%r2 as %w: !async.value<i32>) -> !async.value<i32> {
    %two = arith.constant 2 : i32
    %z = arith.addi %w, %two : i32
    async.yield %z : i32
  }
  %v = async.await %r3 : !async.value<i32>
  return %v : i32
}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c20 = arith.constant 20 : i32
  %zero = arith.constant 0 : i32
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = func.call @chain(%c20) : (i32) -> i32
    %s = arith.addi %acc, %v : i32
    scf.yield %s : i32
  }
  return %sum : i32
}
