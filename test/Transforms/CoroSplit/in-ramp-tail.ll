; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; llvm.coro.is_in_ramp in a suspension's tail: the suspend's result is
; unused, so the ramp and both clones go on in its block, and the branch
; on is_in_ramp picks the ramp's return or the clones' cleanup (a shape of
; LLVM's coro-frame-inramp test). A clone's landing copies the tail; its
; copy of is_in_ramp is false (it was left as it was: "'llvm.coro.is_in_ramp'
; outside a coroutine", once per clone). main runs the ramp (which prints
; the value it is given), then resumes: the clone frees the frame and
; counts it.

; CHECK-LABEL: llvm.func @fn(
; CHECK-NOT: is_in_ramp
; CHECK: llvm.call @use(
; CHECK-LABEL: llvm.func internal fastcc @fn.resume(
; CHECK-NOT: is_in_ramp
; CHECK: llvm.call @free(
; CHECK-NOT: llvm.call @use(
; CHECK: llvm.return
; CHECK-LABEL: llvm.func internal fastcc @fn.destroy(
; CHECK-NOT: is_in_ramp
; CHECK: llvm.return
; OUT: use 7
; OUT-NEXT: freed 1

@hdl = global ptr null
@freed = global i32 0
@fmt.use = private constant [8 x i8] c"use %d\0A\00"
@fmt.freed = private constant [10 x i8] c"freed %d\0A\00"

define void @fn(ptr %result) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 16, ptr null, ptr @fn, ptr null)
  %alloc = call i1 @llvm.coro.alloc(token %id)
  br i1 %alloc, label %coro.alloc, label %coro.init
coro.alloc:
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  br label %coro.init
coro.init:
  %0 = phi ptr [ null, %entry ], [ %mem, %coro.alloc ]
  %1 = call ptr @llvm.coro.begin(token %id, ptr %0)
  store ptr %1, ptr @hdl
  %save = call token @llvm.coro.save(ptr null)
  %sp = call i8 @llvm.coro.suspend(token %save, i1 false)
  %InRamp = call i1 @llvm.coro.is_in_ramp()
  br i1 %InRamp, label %gro.conv, label %cleanup10
gro.conv:
  call void @use(ptr %result)
  br label %coro.ret
cleanup10:
  %mem1 = call ptr @llvm.coro.free(token %id, ptr %1)
  call void @free(ptr %mem1)
  %n = load i32, ptr @freed
  %n1 = add i32 %n, 1
  store i32 %n1, ptr @freed
  br label %coro.ret
coro.ret:
  call void @llvm.coro.end(ptr null, i1 false, token none)
  ret void
}

define void @use(ptr %p) {
  %v = load i32, ptr %p
  call i32 (ptr, ...) @printf(ptr @fmt.use, i32 %v)
  ret void
}

define i32 @main() {
  %x = alloca i32
  store i32 7, ptr %x
  call void @fn(ptr %x)
  %h = load ptr, ptr @hdl
  call void @llvm.coro.resume(ptr %h)
  %n = load i32, ptr @freed
  call i32 (ptr, ...) @printf(ptr @fmt.freed, i32 %n)
  ret i32 0
}

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.coro.resume(ptr)
