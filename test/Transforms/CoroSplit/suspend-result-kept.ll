; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; The result of a suspend read after a later suspension (LLVM's
; coro-spill-suspend and coro-materialize tests): it is the value its
; suspension was resumed with (0) or destroyed with (1), kept in the frame
; across the later suspension as LLVM keeps it. Each edge of the switch on
; it stores what that edge stands for into a one-byte slot, which the uses
; outside its block load (it was refused: "the result of llvm.coro.suspend
; is used outside its block"). main destroys one coroutine at its first
; suspension (1), and resumes another once before destroying it at the
; second (0).

; CHECK-LABEL: llvm.func @f(
; CHECK-LABEL: llvm.func internal fastcc @f.destroy(
; CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> i8
; CHECK: llvm.call @print(
; OUT: sp1 1
; OUT-NEXT: sp1 0

@fmt = private constant [8 x i8] c"sp1 %d\0A\00"

define void @print(i8 %v) {
  %w = zext i8 %v to i32
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %w)
  ret void
}

define ptr @f(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %alloc)
  %sp1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %sp1, label %suspend [i8 0, label %resume1
                                  i8 1, label %cleanup]
resume1:
  %sp2 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %sp2, label %suspend [i8 0, label %resume2
                                  i8 1, label %cleanup]
resume2:
  br label %cleanup
cleanup:
  call void @print(i8 %sp1)
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 0, token none)
  ret ptr %hdl
}

define i32 @main() {
  %a = call ptr @f(i32 0)
  call void @llvm.coro.destroy(ptr %a)
  %b = call ptr @f(i32 0)
  call void @llvm.coro.resume(ptr %b)
  call void @llvm.coro.destroy(ptr %b)
  ret i32 0
}

declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i32)
declare void @free(ptr)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
