// RUN: coro-opt --coro-split %s | FileCheck %s

// SSA repair when a value needs a new block argument on one edge of a
// cond_br and is passed on its other edge. This is the module the
// differential test's seed 9141 (ABI=switch) becomes after LLVM's
// pre-split simplification (route B at -O2), less its main: after
// the first suspension, the resumed block ends in
//   llvm.cond_br %c, ^done, ^loop(%arg2, %zero : i64, i64)
// and in the resume function %arg2 comes from the frame, with a new
// argument of ^done for it. Adding that argument to the true edge moved
// the false edge's operands; the use of %arg2 on the false edge was looked
// for at its old position, another operand was rewritten in its place, and
// %arg2 (the old entry block's argument, erased with it) stayed: an op
// using an erased value (a crash or "type mismatch" at verification).
// Both edges now pass the reloaded value.
// CHECK-LABEL: llvm.func internal fastcc @co0.resume(
// CHECK: llvm.cond_br %{{[0-9]+}} weights([1, 2000]), ^bb{{[0-9]+}}(%[[V:[0-9]+]] : i64), ^bb{{[0-9]+}}(%[[V]], %{{[0-9]+}},
module attributes {coro.route = "mlir-split"} {
  llvm.mlir.global internal unnamed_addr @counter(0 : i64) {addr_space = 0 : i32, dso_local} : i64
  llvm.module_flags [#llvm.mlir.module_flag<warning, "Debug Info Version", 3 : i32>]
  llvm.func local_unnamed_addr @aligned_alloc(i64, i64) -> !llvm.ptr
  llvm.func local_unnamed_addr @free(!llvm.ptr)
  llvm.func local_unnamed_addr @malloc(i64) -> !llvm.ptr
  llvm.func local_unnamed_addr @co0(%arg0: i64, %arg1: i64, %arg2: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
    %0 = llvm.mlir.constant(1 : i32) : i32
    %1 = llvm.mlir.constant(0 : i32) : i32
    %2 = llvm.mlir.zero : !llvm.ptr
    %3 = llvm.mlir.constant(16 : i64) : i64
    %4 = llvm.mlir.constant(-1 : i64) : i64
    %5 = llvm.mlir.constant(0 : i64) : i64
    %6 = llvm.mlir.constant(1048575 : i64) : i64
    %7 = llvm.mlir.constant(8 : i64) : i64
    %8 = llvm.mlir.constant(false) : i1
    %9 = llvm.mlir.addressof @counter : !llvm.ptr
    %10 = llvm.mlir.constant(3 : i64) : i64
    %11 = llvm.mlir.constant(4294967295 : i64) : i64
    %12 = llvm.mlir.constant(200 : i64) : i64
    %13 = llvm.mlir.constant(1.500000e+00 : f64) : f64
    %14 = llvm.mlir.constant(300 : i64) : i64
    %15 = llvm.mlir.constant(1664 : i64) : i64
    %16 = llvm.mlir.constant(9 : i64) : i64
    %17 = llvm.mlir.constant(1 : i64) : i64
    %18 = llvm.mlir.addressof @__coro_switch_final : !llvm.ptr
    %19 = llvm.mlir.constant(true) : i1
    %20 = llvm.mlir.constant(1 : i8) : i8
    %21 = llvm.mlir.none : !llvm.token
    %22 = llvm.alloca %0 x !llvm.struct<(ptr, f64)> {alignment = 16 : i64} : (i32) -> !llvm.ptr
    %23 = llvm.intr.coro.id %1, %22, %2, %2 : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
    %24 = llvm.call_intrinsic "llvm.coro.alloc"(%23) : (!llvm.token) -> i1
    llvm.cond_br %24, ^bb1, ^bb4(%2 : !llvm.ptr)
  ^bb1:  // pred: ^bb0
    %25 = llvm.intr.coro.size : i64
    %26 = llvm.intr.coro.align : i64
    %27 = llvm.icmp "ugt" %26, %3 : i64
    llvm.cond_br %27, ^bb2, ^bb3
  ^bb2:  // pred: ^bb1
    %28 = llvm.add %25, %4 : i64
    %29 = llvm.add %28, %26 : i64
    %30 = llvm.sub %5, %26 : i64
    %31 = llvm.and %29, %30 : i64
    %32 = llvm.call @aligned_alloc(%26, %31) : (i64, i64) -> !llvm.ptr
    llvm.br ^bb4(%32 : !llvm.ptr)
  ^bb3:  // pred: ^bb1
    %33 = llvm.call @malloc(%25) : (i64) -> !llvm.ptr
    llvm.br ^bb4(%33 : !llvm.ptr)
  ^bb4(%34: !llvm.ptr):  // 3 preds: ^bb0, ^bb2, ^bb3
    %35 = llvm.intr.coro.begin %23, %34 : (!llvm.token, !llvm.ptr) -> !llvm.ptr
    llvm.store %2, %22 {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
    %36 = llvm.and %arg0, %6 : i64
    %37 = llvm.uitofp nneg %36 : i64 to f64
    %38 = llvm.getelementptr inbounds|nuw %22[%7] : (!llvm.ptr, i64) -> !llvm.ptr, i8
    llvm.store %37, %38 {alignment = 8 : i64} : f64, !llvm.ptr
    %39 = llvm.intr.coro.save %35 : (!llvm.ptr) -> !llvm.token
    %40 = llvm.intr.coro.suspend %39, %8 : i8
    llvm.switch %40 : i8, ^bb15 [
      0: ^bb5,
      1: ^bb13
    ]
  ^bb5:  // pred: ^bb4
    %41 = llvm.load %9 {alignment = 4 : i64} : !llvm.ptr -> i64
    %42 = llvm.mul %41, %10 : i64
    %43 = llvm.add %42, %arg2 : i64
    llvm.store %43, %9 {alignment = 4 : i64} : i64, !llvm.ptr
    %44 = llvm.and %arg1, %10 : i64
    %45 = llvm.icmp "eq" %44, %5 : i64
    llvm.cond_br %45, ^bb11, ^bb6(%arg2, %5 : i64, i64)
  ^bb6(%46: i64, %47: i64):  // 2 preds: ^bb5, ^bb10
    %48 = llvm.and %46, %6 : i64
    %49 = llvm.uitofp nneg %48 : i64 to f64
    llvm.store %49, %38 {alignment = 8 : i64} : f64, !llvm.ptr
    %50 = llvm.intr.coro.save %35 : (!llvm.ptr) -> !llvm.token
    %51 = llvm.intr.coro.suspend %50, %8 : i8
    llvm.switch %51 : i8, ^bb15 [
      0: ^bb8,
      1: ^bb7
    ]
  ^bb7:  // pred: ^bb6
    %52 = llvm.and %arg0, %11 : i64
    %53 = llvm.add %52, %12 overflow<nsw, nuw> : i64
    llvm.br ^bb12(%53 : i64)
  ^bb8:  // pred: ^bb6
    llvm.store %13, %38 {alignment = 8 : i64} : f64, !llvm.ptr
    %54 = llvm.intr.coro.save %35 : (!llvm.ptr) -> !llvm.token
    %55 = llvm.intr.coro.suspend %54, %8 : i8
    llvm.switch %55 : i8, ^bb15 [
      0: ^bb10,
      1: ^bb9
    ]
  ^bb9:  // pred: ^bb8
    %56 = llvm.add %arg2, %14 : i64
    llvm.br ^bb12(%56 : i64)
  ^bb10:  // pred: ^bb8
    %57 = llvm.add %47, %17 overflow<nsw, nuw> : i64
    %58 = llvm.xor %46, %47 : i64
    %59 = llvm.icmp "eq" %57, %44 : i64
    llvm.cond_br %59, ^bb11, ^bb6(%58, %57 : i64, i64)
  ^bb11:  // 2 preds: ^bb5, ^bb10
    %60 = llvm.and %arg2, %6 : i64
    %61 = llvm.uitofp nneg %60 : i64 to f64
    llvm.store %61, %38 {alignment = 8 : i64} : f64, !llvm.ptr
    %62 = llvm.intr.coro.save %35 : (!llvm.ptr) -> !llvm.token
    llvm.call_intrinsic "llvm.coro.await.suspend.handle"(%35, %35, %18) : (!llvm.ptr, !llvm.ptr, !llvm.ptr {llvm.nonnull}) -> ()
    %63 = llvm.intr.coro.suspend %62, %19 : i8
    %64 = llvm.icmp "eq" %63, %20 : i8
    llvm.cond_br %64, ^bb13, ^bb15
  ^bb12(%65: i64):  // 2 preds: ^bb7, ^bb9
    %66 = llvm.add %65, %15 : i64
    %67 = llvm.load %9 {alignment = 4 : i64} : !llvm.ptr -> i64
    %68 = llvm.mul %67, %16 : i64
    %69 = llvm.add %66, %68 : i64
    llvm.store %69, %9 {alignment = 4 : i64} : i64, !llvm.ptr
    %70 = llvm.and %65, %6 : i64
    %71 = llvm.uitofp nneg %70 : i64 to f64
    llvm.store %71, %38 {alignment = 8 : i64} : f64, !llvm.ptr
    llvm.br ^bb13
  ^bb13:  // 3 preds: ^bb4, ^bb11, ^bb12
    %72 = llvm.intr.coro.free %23, %35 : (!llvm.token, !llvm.ptr) -> !llvm.ptr
    %73 = llvm.icmp "eq" %72, %2 : !llvm.ptr
    llvm.cond_br %73, ^bb15, ^bb14
  ^bb14:  // pred: ^bb13
    llvm.call @free(%72) : (!llvm.ptr {llvm.nonnull}) -> ()
    llvm.br ^bb15
  ^bb15:  // 6 preds: ^bb4, ^bb6, ^bb8, ^bb11, ^bb13, ^bb14
    %74 = llvm.intr.coro.end %35, %8, %21 : (!llvm.ptr, i1, !llvm.token) -> !llvm.void
    llvm.return %35 : !llvm.ptr
  }
  llvm.func internal @__coro_switch_final(%arg0: !llvm.ptr {llvm.nocapture, llvm.readnone}, %arg1: !llvm.ptr {llvm.nocapture, llvm.readnone}) -> !llvm.ptr attributes {dso_local} {
    %0 = llvm.mlir.constant(16 : i32) : i32
    %1 = llvm.mlir.constant(false) : i1
    %2 = llvm.mlir.zero : !llvm.ptr
    %3 = llvm.intr.coro.promise %arg1, %0, %1 : (!llvm.ptr, i32, i1) -> !llvm.ptr
    %4 = llvm.load %3 {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
    %5 = llvm.icmp "eq" %4, %2 : !llvm.ptr
    llvm.cond_br %5, ^bb2, ^bb1(%4 : !llvm.ptr)
  ^bb1(%6: !llvm.ptr):  // 2 preds: ^bb0, ^bb2
    llvm.return %6 : !llvm.ptr
  ^bb2:  // pred: ^bb0
    %7 = llvm.call_intrinsic "llvm.coro.noop"() : () -> !llvm.ptr
    llvm.br ^bb1(%7 : !llvm.ptr)
  }
  llvm.func @llvm.coro.alloc(!llvm.token) -> i1 attributes {no_unwind}
  llvm.func @llvm.coro.await.suspend.handle(!llvm.ptr, !llvm.ptr, !llvm.ptr)
  llvm.func @llvm.coro.done(!llvm.ptr {llvm.nocapture, llvm.readonly}) -> i1 attributes {memory_effects = #llvm.memory_effects<other = none, argMem = readwrite, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>, no_unwind}
  llvm.func @llvm.coro.destroy(!llvm.ptr)
  llvm.func @llvm.coro.noop() -> !llvm.ptr attributes {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>, no_unwind}
}


