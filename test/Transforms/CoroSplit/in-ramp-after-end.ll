; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; llvm.coro.is_in_ramp after llvm.coro.end in the block they share (a shape
; of LLVM's coroutine tests, once coro.end returns nothing): the ramp reads
; true there; in the resume and destroy functions the end returns, and what
; followed it goes with it. The split rewrites every other intrinsic before
; the ends, which erase what follows them (it crashed: the is_in_ramp was
; rewritten after its end had erased it).

; CHECK-LABEL: llvm.func @f()
; CHECK-NOT: is_in_ramp
; CHECK: llvm.mlir.constant(true) : i1
; CHECK-LABEL: llvm.func internal fastcc @f.resume
; CHECK-NOT: is_in_ramp
; CHECK: llvm.return
; OUT: 1

@in_ramp = global i32 0

define ptr @f() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %alloc)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %ret [ i8 0, label %cleanup
                             i8 1, label %cleanup ]
cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %ret
ret:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  %r = call i1 @llvm.coro.is_in_ramp()
  %z = zext i1 %r to i32
  %old = load i32, ptr @in_ramp
  %new = add i32 %old, %z
  store i32 %new, ptr @in_ramp
  ret ptr %hdl
}

define i32 @main() {
  %h = call ptr @f()
  call void @llvm.coro.resume(ptr %h)
  %v = load i32, ptr @in_ramp
  ret i32 %v
}

declare ptr @malloc(i32)
declare void @free(ptr)
