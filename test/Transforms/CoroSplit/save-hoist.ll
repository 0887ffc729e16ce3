; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; Address arithmetic between an llvm.coro.save and its suspend whose result
; lives across the suspension (a shape of LLVM's coro-preserve-final test,
; clang's code after LLVM's passes: a GEP to the awaited coroutine's handle,
; used again after the suspension). A suspension stores what it keeps at
; its save, so such a pure op moves above the save, where its operands
; exist (it was refused: "computed after its llvm.coro.save"); the call
; after it stays where it is. main resumes f once: it reads, through the
; kept pointer, the value @note stored before the suspension.

; CHECK-LABEL: llvm.func @f(
; CHECK: llvm.getelementptr
; CHECK: llvm.call @note(
; CHECK-LABEL: llvm.func internal fastcc @f.resume(
; CHECK: llvm.load
; OUT: noted 4
; OUT-NEXT: read 42

@buf = global [4 x i32] zeroinitializer
@fmt.noted = private constant [10 x i8] c"noted %d\0A\00"
@fmt.read = private constant [9 x i8] c"read %d\0A\00"

define void @note(ptr %q) {
  store i32 42, ptr %q
  %d = ptrtoint ptr %q to i64
  %b = ptrtoint ptr @buf to i64
  %o = sub i64 %d, %b
  %o32 = trunc i64 %o to i32
  call i32 (ptr, ...) @printf(ptr @fmt.noted, i32 %o32)
  ret void
}

define ptr @f(ptr %p) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %mem = call ptr @malloc(i32 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %save = call token @llvm.coro.save(ptr null)
  %q = getelementptr inbounds i8, ptr %p, i64 4
  call void @note(ptr %q)
  %s = call i8 @llvm.coro.suspend(token %save, i1 false)
  switch i8 %s, label %ret [ i8 0, label %resume
                             i8 1, label %cleanup ]
resume:
  %v = load i32, ptr %q
  call i32 (ptr, ...) @printf(ptr @fmt.read, i32 %v)
  br label %cleanup
cleanup:
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %ret
ret:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
  %h = call ptr @f(ptr @buf)
  call void @llvm.coro.resume(ptr %h)
  ret i32 0
}

declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i32)
declare void @free(ptr)
declare void @llvm.coro.resume(ptr)
