; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-translate %s --emit=split-llvm --route=mlir-split -o - | FileCheck %s --check-prefix=LL
; RUN: coro-translate %s --emit=split-llvm --route=mlir-split -O2 -o - | FileCheck %s --check-prefix=LL

; An llvm.coro.async.resume whose suspension is gone: LLVM's pre-split
; passes delete an async suspension on a path they prove undefined, and
; leave the resume function it named (LLVM's coro-async-c-cc test at -O2:
; 'llvm.coro.async.resume' outside a coroutine). No continuation resumes
; there: its address is null. @g keeps its suspension and its resume
; function is its continuation.

; CHECK-LABEL: llvm.func @f(
; CHECK-NOT: llvm.coro
; CHECK: llvm.mlir.zero
; CHECK-NOT: llvm.coro
; CHECK-LABEL: llvm.func @g(
; CHECK: llvm.mlir.addressof @g.resume.0
; LL-LABEL: define void @f(
; LL: store ptr null, ptr @slot
; LL-LABEL: define void @g(

@slot = global ptr null

@f.fp = constant <{ i32, i32 }>
  <{ i32 trunc (i64 sub (i64 ptrtoint (ptr @f to i64),
                         i64 ptrtoint (ptr getelementptr inbounds (<{ i32, i32 }>, ptr @f.fp, i32 0, i32 1) to i64)) to i32),
     i32 64 }>
@g.fp = constant <{ i32, i32 }>
  <{ i32 trunc (i64 sub (i64 ptrtoint (ptr @g to i64),
                         i64 ptrtoint (ptr getelementptr inbounds (<{ i32, i32 }>, ptr @g.fp, i32 0, i32 1) to i64)) to i32),
     i32 64 }>

define void @dispatch(ptr %rf, ptr %ctx) {
  store ptr %rf, ptr @slot
  ret void
}

define ptr @project(ptr %ctx) {
  ret ptr %ctx
}

define void @f(ptr %ctx) {
  %id = call token @llvm.coro.id.async(i32 64, i32 8, i32 0, ptr @f.fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %r = call ptr @llvm.coro.async.resume()
  store ptr %r, ptr @slot
  ret void
}

define void @g(ptr %ctx) {
  %id = call token @llvm.coro.id.async(i32 64, i32 8, i32 0, ptr @g.fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %r = call ptr @llvm.coro.async.resume()
  %s = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async.sl_p0s(i32 0, ptr %r, ptr @project, ptr @dispatch, ptr %r, ptr %ctx)
  call void (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false)
  unreachable
}

declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
declare { ptr } @llvm.coro.suspend.async.sl_p0s(i32, ptr, ptr, ...)
declare void @llvm.coro.end.async(ptr, i1, ...)
