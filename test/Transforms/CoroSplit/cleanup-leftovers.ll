; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; Shapes of LLVM's coro-early-presplit, coro-conditional-elide and
; coro-cleanup-lowering tests, each refused before:
; - @gen is a switch coroutine whose id names no resume functions yet (a
;   null fourth operand) but which is not marked presplitcoroutine: a
;   coroutine all the same, as LLVM's CoroEarly infers since LLVM 23;
; - @marked is marked but holds no coroutine: nothing to split, and the
;   mark goes, as LLVM's CoroSplit drops it;
; - @split_ramp is code as LLVM's split leaves a ramp (its id names the
;   resume functions; alloc, begin and free kept for elision), and @drive
;   calls through llvm.coro.subfn.addr: lowered as LLVM's CoroCleanup
;   lowers them (the id goes, alloc is true, begin is its memory, free its
;   frame, subfn.addr loads the resume or destroy entry).
; main drives @gen by subfn.addr: it yields 10, then 20, then ends.

; CHECK-LABEL: llvm.func @gen(
; CHECK-NOT: passthrough
; CHECK-LABEL: llvm.func @marked(
; CHECK-NOT: passthrough
; CHECK-NOT: llvm.coro
; CHECK-LABEL: llvm.func @split_ramp(
; CHECK-NOT: coro
; CHECK: llvm.return
; CHECK-LABEL: llvm.func @drive(
; CHECK-NOT: coro
; CHECK: llvm.return
; OUT: 10 20 done

@out = global i32 0
@fmt = private constant [12 x i8] c"%d %d done\0A\00"
@resumers = constant [2 x ptr] [ptr @marked, ptr @marked]

define ptr @gen() {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %mem = call ptr @malloc(i32 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  store i32 10, ptr @out
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %ret [ i8 0, label %second
                              i8 1, label %cleanup ]
second:
  store i32 20, ptr @out
  %s2 = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %s2, label %ret [ i8 0, label %cleanup
                              i8 1, label %cleanup ]
cleanup:
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %ret
ret:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define void @marked() presplitcoroutine {
  ret void
}

define ptr @split_ramp(ptr %frame) {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr @split_ramp, ptr @resumers)
  %a = call i1 @llvm.coro.alloc(token %id)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %frame)
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  ret ptr %f
}

define void @drive(ptr %h, i8 %which) {
  %is_destroy = icmp eq i8 %which, 1
  br i1 %is_destroy, label %destroy, label %resume
resume:
  %r = call ptr @llvm.coro.subfn.addr(ptr %h, i8 0)
  call fastcc void %r(ptr %h)
  ret void
destroy:
  %d = call ptr @llvm.coro.subfn.addr(ptr %h, i8 1)
  call fastcc void %d(ptr %h)
  ret void
}

define i32 @main() {
  %h = call ptr @gen()
  %first = load i32, ptr @out
  call void @drive(ptr %h, i8 0)
  %second = load i32, ptr @out
  %same = call ptr @split_ramp(ptr %h)
  call void @drive(ptr %same, i8 1)
  call void @marked()
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %first, i32 %second)
  ret i32 0
}

declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i32)
declare void @free(ptr)
declare ptr @llvm.coro.subfn.addr(ptr, i8)
