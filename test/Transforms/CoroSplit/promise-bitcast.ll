; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; The promise of llvm.coro.id given through a cast of a pointer to a
; pointer (typed-pointer IR's bitcast, which LLVM strips; MLIR's importer
; keeps it: LLVM's coro-debug-spill-dbg.declare test): the promise is the
; alloca behind the cast (it was refused: "the promise of llvm.coro.id must
; be an llvm.alloca"). main reads the promise, which the coroutine set to
; 7 before suspending.

; CHECK-LABEL: llvm.func @f(
; CHECK-NOT: llvm.bitcast
; CHECK: llvm.return
; OUT: promise 7

@fmt = private constant [12 x i8] c"promise %d\0A\00"

define ptr @f() presplitcoroutine {
entry:
  %promise = alloca i32, align 4
  %cast = bitcast ptr %promise to ptr
  %id = call token @llvm.coro.id(i32 4, ptr %cast, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %mem = call ptr @malloc(i32 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  store i32 7, ptr %promise
  %s = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %s, label %ret [ i8 0, label %cleanup
                             i8 1, label %cleanup ]
cleanup:
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %ret
ret:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
  %h = call ptr @f()
  %p = call ptr @llvm.coro.promise(ptr %h, i32 4, i1 false)
  %v = load i32, ptr %p
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v)
  call void @llvm.coro.destroy(ptr %h)
  ret i32 0
}

declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i32)
declare void @free(ptr)
declare ptr @llvm.coro.promise(ptr, i32, i1)
declare void @llvm.coro.destroy(ptr)
