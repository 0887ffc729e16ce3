; RUN: not coro-opt %s --coro-split 2>&1 | FileCheck %s

; The address of an alloca the frame keeps escapes before llvm.coro.begin
; (stored into @escaped): a copy of the alloca would leave that address
; behind, so --coro-split refuses, at the use, rather than read stale
; memory later.

@escaped = global ptr null

declare ptr @malloc(i64)
declare void @free(ptr)

; CHECK: copy-in-invalid.ll:[[@LINE+6]]:3: error: this use of an alloca the coroutine keeps in its frame runs before llvm.coro.begin and lets its address escape
; CHECK-NEXT: store ptr %x, ptr @escaped
; CHECK-NEXT: ^
define ptr @f(ptr %out) presplitcoroutine {
entry:
  %x = alloca i64
  store ptr %x, ptr @escaped
  store i64 7, ptr %x
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  %v = load i64, ptr %x
  store i64 %v, ptr %out
  br label %cleanup
cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}
