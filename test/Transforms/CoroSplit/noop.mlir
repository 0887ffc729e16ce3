// RUN: coro-opt --coro-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=OUT
// RUN: coro-translate --route=mlir-split --emit=split-llvm -O2 %s | FileCheck %s --check-prefix=O2

// llvm.coro.noop is the address of a frame nothing writes to: a constant,
// as LLVM's own, so -O2 folds the loads of its resume pointer.
// CHECK-NOT: llvm.coro.noop
// CHECK: llvm.func internal fastcc @__coro_noop_resume
// CHECK: llvm.mlir.global internal constant @__coro_noop_frame
// O2: define {{.*}} i32 @main()
// O2-NEXT: ret i32 7
// Resuming and destroying it do nothing; it is never done.
// OUT: 7
llvm.func @main() -> i32 {
  %n = llvm.call_intrinsic "llvm.coro.noop"() : () -> !llvm.ptr
  llvm.intr.coro.resume %n : !llvm.ptr
  llvm.call_intrinsic "llvm.coro.destroy"(%n) : (!llvm.ptr) -> ()
  %d = llvm.call_intrinsic "llvm.coro.done"(%n) : (!llvm.ptr) -> i1
  %one = llvm.mlir.constant(1 : i32) : i32
  %seven = llvm.mlir.constant(7 : i32) : i32
  %r = llvm.select %d, %one, %seven : i1, i32
  llvm.return %r : i32
}
