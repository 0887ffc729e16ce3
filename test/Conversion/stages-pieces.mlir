// RUN: %python %S/Inputs/pieces-gen.py 600 > %t.mlir
// RUN: coro-opt %t.mlir --coro-lower --coro-split > %t.threads.mlir
// RUN: coro-opt %t.mlir --coro-lower --coro-split --mlir-disable-threading > %t.one.mlir
// RUN: diff %t.threads.mlir %t.one.mlir
// RUN: FileCheck %s < %t.threads.mlir
// RUN: coro-opt %t.mlir --coro-lower --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIECES
// RUN: coro-opt %t.mlir --coro-lower --mlir-timing --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: %python %S/Inputs/pieces-gen.py 100 > %t.small.mlir
// RUN: coro-opt %t.small.mlir --coro-lower --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: %python %S/Inputs/pieces-gen.py 600 --bare-ptr > %t.bare.mlir
// RUN: coro-opt %t.bare.mlir --coro-lower --mlir-timing -o %t.bare.threads.mlir 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: coro-opt %t.bare.mlir --coro-lower --mlir-disable-threading > %t.bare.one.mlir
// RUN: diff %t.bare.threads.mlir %t.bare.one.mlir
// RUN: FileCheck %s --check-prefix=BARE < %t.bare.threads.mlir
// RUN: %python %S/Inputs/pieces-gen.py 600 --bare-ptr-first > %t.first.mlir
// RUN: coro-opt %t.first.mlir --coro-lower --mlir-timing -o %t.first.threads.mlir 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: FileCheck %s --check-prefix=BARE < %t.first.threads.mlir
// RUN: %python %S/Inputs/pieces-gen.py 600 --llvm > %t.llvm.mlir
// RUN: coro-opt %t.llvm.mlir --coro-lower > %t.llvm.threads.mlir
// RUN: coro-opt %t.llvm.mlir --coro-lower --mlir-disable-threading > %t.llvm.one.mlir
// RUN: diff %t.llvm.threads.mlir %t.llvm.one.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t.llvm.threads.mlir
// RUN: %python %S/Inputs/pieces-gen.py 600 --llvm-only > %t.only.mlir
// RUN: coro-opt %t.only.mlir --coro-lower > %t.only.threads.mlir
// RUN: coro-opt %t.only.mlir --coro-lower --mlir-disable-threading > %t.only.one.mlir
// RUN: diff %t.only.threads.mlir %t.only.one.mlir
// RUN: FileCheck %s --check-prefix=ONLY < %t.only.threads.mlir
// REQUIRES: threads

// coro-rest-to-llvm converts a module of enough top-level ops (512) whose
// ops are arith, cf and func alone in pieces at once, on MLIR's threads:
// the same output as converting it whole (--mlir-disable-threading, or a
// module of fewer ops), every function in its place. The pieces' passes
// run outside the pass manager's instrumentation, so the timing report
// shows the stage but not upstream's passes in it; converted whole, it
// shows them. A module with a function marked llvm.bareptr stays whole:
// its callers' lowering looks it up, and would not find it in another
// piece (a call of it passes the memref's bare pointer, not a
// descriptor), the module's first function included. The stages find what
// a module holds by a walk of its top-level ops in pieces on the threads.
// Top-level ops of LLVM's ops alone (llvm.func, llvm.mlir.global) stay out
// of the pieces, which have nothing to convert in them, and keep their
// places between the ops the pieces convert, each run of those put back
// where it was; a module of them alone makes no piece.

// CHECK: llvm.func @ext(i64) -> i64
// CHECK: llvm.func @gen0(
// CHECK: llvm.func @drive0(
// CHECK: llvm.func @f0(%{{.*}}: i64, %{{.*}}: i64) -> i64
// CHECK: llvm.call @f595(
// CHECK: llvm.func @f1(%{{.*}}: i32) -> i32
// CHECK: llvm.switch
// CHECK: llvm.func @f3(
// CHECK: llvm.mlir.addressof @f598 : !llvm.ptr
// CHECK: llvm.func @f4(
// CHECK: llvm.func @_mlir_ciface_f4(
// CHECK: llvm.func @f599(
// CHECK: llvm.func internal fastcc @gen0.resume(
// CHECK-NOT: builtin.unrealized_conversion_cast
// CHECK-NOT: arith.
// CHECK-NOT: cf.
// CHECK-NOT: func.

// PIECES: CoroRestToLLVM
// PIECES-NOT: ConvertToLLVMPass
// PIECES: CoroCheckLowered

// WHOLE: ConvertToLLVMPass
// WHOLE: ConvertFuncToLLVMPass
// WHOLE: CoroRestToLLVM

// BARE-LABEL: llvm.func @use_bp(
// BARE: llvm.call @bp(%{{.*}}) : (!llvm.ptr) -> f32

// LLVM: llvm.func @f2(
// LLVM-NEXT: llvm.fpext
// LLVM-LABEL: llvm.func @l3(
// LLVM-NEXT: llvm.mlir.constant(3 : i64) : i64
// LLVM: llvm.func @f3(
// LLVM: llvm.func @f4(
// LLVM: llvm.func @_mlir_ciface_f4(
// LLVM: llvm.mlir.global internal constant @g5(42 : i64)
// LLVM-NEXT: llvm.func @f5(
// LLVM: llvm.func @l10(
// LLVM-NEXT: llvm.mlir.constant(3 : i64) : i64
// LLVM: llvm.func @f10(
// LLVM: llvm.func @l598(
// LLVM: llvm.func @f598(
// LLVM: llvm.func @f599(
// LLVM-NOT: arith.
// LLVM-NOT: cf.
// LLVM-NOT: func.

// ONLY-NOT: {{^ +module}}
// ONLY: llvm.func @l0(
// ONLY-NOT: {{^ +module}}
// ONLY: llvm.func @l599(
// ONLY-NOT: {{^ +module}}
